/** GET /v3/{domain}/templates/{name}: the template, with its active version when ?active=yes; 404 when unknown. */
import { json, type EmulatedRequest, type Reply } from '../../types';
import { withDomain } from '../domains';
import { message } from '../errors';
import type { MailgunSeed } from '../seed';

export const getTemplate = (request: EmulatedRequest, data: MailgunSeed, [name, templateName]: string[]): Reply =>
  withDomain(data, name, (x) => {
    const t = (x.templates ?? []).find((y) => y.name === templateName);
    if (!t) return message(404, 'template not found');
    const { versions, ...meta } = t;
    const active = versions.find((v) => v.active);
    return json(200, { template: request.query.get('active') === 'yes' && active ? { ...meta, version: active } : meta });
  });
