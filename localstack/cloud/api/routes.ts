/**
 * API Gateway (HTTP API) route matching for the local runtime: the same route keys as the CDK stack
 * ('ANY /emails', 'ANY /emails/{proxy+}', 'GET /x/{id}'), the most specific match wins.
 */
export interface RouteTarget<T> {
  routeKey: string;
  method: string;
  segments: string[];
  target: T;
}

export interface RouteMatch<T> {
  routeKey: string;
  target: T;
  pathParameters: Record<string, string>;
}

export function compileRoutes<T>(entries: { routeKey: string; target: T }[]): RouteTarget<T>[] {
  return entries.map(({ routeKey, target }) => {
    const [method, path] = routeKey.split(' ') as [string, string];
    return { routeKey, method, segments: path.split('/').filter(Boolean), target };
  });
}

/** Higher is more specific: literal segments beat {param}, which beat {proxy+}; exact methods beat ANY. */
function specificity(route: RouteTarget<unknown>): number {
  let score = 0;
  for (const segment of route.segments) score += segment.endsWith('+}') ? 1 : segment.startsWith('{') ? 10 : 100;
  return score * 2 + (route.method === 'ANY' ? 0 : 1);
}

export function matchRoute<T>(routes: RouteTarget<T>[], method: string, path: string): RouteMatch<T> | null {
  const parts = path
    .split('/')
    .filter(Boolean)
    .map((part) => decodeURIComponent(part));
  let best: { route: RouteTarget<T>; params: Record<string, string> } | null = null;
  for (const route of routes) {
    if (route.method !== 'ANY' && route.method !== method) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < route.segments.length; i++) {
      const segment = route.segments[i]!;
      if (segment.endsWith('+}')) {
        const rest = parts.slice(i);
        if (rest.length === 0) ok = false;
        else params[segment.slice(1, -2)] = rest.join('/');
        break;
      }
      const part = parts[i];
      if (part === undefined) {
        ok = false;
        break;
      }
      if (segment.startsWith('{')) params[segment.slice(1, -1)] = part;
      else if (segment !== part) {
        ok = false;
        break;
      }
      if (i === route.segments.length - 1 && parts.length !== route.segments.length) ok = false;
    }
    if (route.segments.length === 0 && parts.length !== 0) ok = false;
    if (ok && (!best || specificity(route) > specificity(best.route))) best = { route, params };
  }
  return best ? { routeKey: best.route.routeKey, target: best.route.target, pathParameters: best.params } : null;
}
