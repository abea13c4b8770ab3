/** GET /v3/{domain}/templates: limit 1..100; page + `p` pivot, by name (../paging.ts); without versions. 404 for an unknown domain. */
import type { EmulatedRequest, Reply } from '../../types';
import { summaries, withDomain } from '../domains';
import { pivotPage } from '../paging';
import type { MailgunSeed } from '../seed';

export const listTemplates = (request: EmulatedRequest, data: MailgunSeed, [name]: string[]): Reply =>
  withDomain(data, name, (x) => pivotPage(request, summaries(x.templates ?? []), (t) => t.name, 'p', 100));
