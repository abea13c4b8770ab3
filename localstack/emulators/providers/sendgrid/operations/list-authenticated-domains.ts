/** GET /v3/whitelabel/domains: the authenticated domains, paged by limit 1..500 (default 50) + offset (../paging.ts). */
import type { EmulatedRequest, Reply } from '../../types';
import { offsetPage } from '../paging';
import type { SendgridSeed } from '../seed';

export const listAuthenticatedDomains = (request: EmulatedRequest, data: SendgridSeed): Reply =>
  offsetPage(request, data.domains ?? [], 50, 500);
