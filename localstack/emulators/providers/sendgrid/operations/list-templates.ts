/**
 * GET /v3/templates: generations (default legacy); page_size 1..200 required; page_token with
 * _metadata.next as a full URL; the versions listed without their content.
 */
import { intParam } from '../../query-params';
import { json, type EmulatedRequest, type Reply } from '../../types';
import { errors } from '../errors';
import type { SendgridSeed } from '../seed';

export function listTemplates(request: EmulatedRequest, data: SendgridSeed): Reply {
  const templates = data.templates ?? [];
  const generations = (request.query.get('generations') ?? 'legacy').split(',').map((g) => g.trim());
  if (generations.some((g) => g !== 'legacy' && g !== 'dynamic'))
    return errors(400, 'generations must be legacy, dynamic or legacy,dynamic', 'generations');
  if (!request.query.get('page_size')) return errors(400, 'page_size is required', 'page_size');
  const pageSize = intParam(request.query, 'page_size', 0, 1, 200);
  if (pageSize === null) return errors(400, 'page_size must be between 1 and 200', 'page_size');
  const token = request.query.get('page_token');
  const offset = token === null ? 0 : tokenOffset(token);
  if (offset === null) return errors(400, 'invalid page_token', 'page_token');
  const matching = templates.filter((t) => generations.includes(t.generation));
  const result = matching.slice(offset, offset + pageSize).map((t) => ({
    ...t,
    versions: t.versions.map(({ html_content: _h, plain_content: _p, test_data: _t, ...lean }) => lean),
  }));
  const url = (tokenValue: string | null) => {
    const q = new URLSearchParams();
    if (tokenValue !== null) q.set('page_token', tokenValue);
    q.set('page_size', String(pageSize));
    q.set('generations', generations.join(','));
    return `${request.base}/v3/templates?${q.toString().replace(/%2C/g, ',')}`;
  };
  const next = offset + pageSize < matching.length ? url(Buffer.from(`o:${offset + pageSize}`).toString('base64url')) : undefined;
  return json(200, { result, _metadata: { self: url(token), ...(next ? { next } : {}), count: matching.length } });
}

function tokenOffset(token: string): number | null {
  const match = /^o:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : null;
}
