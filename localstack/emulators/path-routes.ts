/**
 * The routing table of an emulator's REST API (Route 53's, Cloudflare's): each path pattern with the
 * action each method names there. A path whose parameters name something that must exist (a hosted zone,
 * a DNS record) resolves them as soon as the path matches, before the method is looked at, so an unknown
 * zone is "not found" whatever the method; a path without such parameters leaves them to its actions.
 */

/** One path of the table: the reply of `method` there, or undefined when the path names no action for it. */
export interface PathRoute<State, Request, Reply> {
  path: RegExp;
  answer(state: State, method: string, params: string[], request: Request): Reply | undefined;
}

type Action<State, Request, Resource, Reply> = (state: State, request: Request, resource: Resource) => Reply;

/** A path whose parameters are resolved first (`resolve` may throw "not found"); each action gets what they name. */
export function resolvedPath<State, Request, Reply, Resource>(
  path: RegExp,
  resolve: (state: State, params: string[]) => Resource,
  actions: Partial<Record<string, Action<State, Request, Resource, Reply>>>,
): PathRoute<State, Request, Reply> {
  return {
    path,
    answer: (state, method, params, request) => {
      const resource = resolve(state, params);
      const action = actions[method];
      return action ? action(state, request, resource) : undefined;
    },
  };
}

/** A path whose actions get its parameters as they are (the path's captures, not decoded). */
export function plainPath<State, Request, Reply>(
  path: RegExp,
  actions: Partial<Record<string, Action<State, Request, string[], Reply>>>,
): PathRoute<State, Request, Reply> {
  return resolvedPath(path, (_state: State, params) => params, actions);
}

/** The reply of the first route whose path matches `pathname`; undefined when none does, or its methods do not include `method`. */
export function answerRoute<State, Request, Reply>(
  routes: readonly PathRoute<State, Request, Reply>[],
  state: State,
  method: string,
  pathname: string,
  request: Request,
): Reply | undefined {
  for (const route of routes) {
    const match = route.path.exec(pathname);
    if (match) return route.answer(state, method, match.slice(1), request);
  }
  return undefined;
}
