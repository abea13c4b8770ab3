/**
 * API Gateway's routes, generated from the operations' declarations (functions/api/<group>/operations.ts,
 * listed in functions/api/operations.ts): each group's Lambda gets `ANY /<first segment>/{proxy+}` for its
 * operations' first segments, and `ANY /<first segment>` too when an operation is on that path itself, plus
 * the group's pages (infra/definitions/api-groups.ts `pages`). ANY and {proxy+}, not each operation's method and path:
 * a path or method of a group's prefix that has no operation reaches the group's app, which answers 404 in the
 * API's error envelope rather than API Gateway's own. The local cloud routes what the synthesized
 * template declares, so a path missing here is a 404 locally as in AWS.
 *
 * Kept apart from infra/definitions, which every Lambda bundles (shared/config/config.ts), so that no bundle
 * carries every group's operations.
 */
import { OPERATIONS } from '#functions/api/operations';
import type { ApiGroupDefinition } from './definitions';

/** `/emails/{id}` -> `ANY /emails/{proxy+}`; `/emails` -> `ANY /emails` and `ANY /emails/{proxy+}`. */
export function routesOf(path: string): string[] {
  const [, first, ...rest] = path.split('/');
  return rest.length === 0 ? [`ANY /${first}`, `ANY /${first}/{proxy+}`] : [`ANY /${first}/{proxy+}`];
}

/** The routes API Gateway sends to a group's Lambda. */
export function apiRoutes(group: Pick<ApiGroupDefinition, 'name' | 'pages'>): string[] {
  const fromOperations = OPERATIONS.filter((operation) => operation.group === group.name).flatMap((operation) => routesOf(operation.path));
  return [...new Set([...(group.pages ?? []), ...fromOperations])];
}
