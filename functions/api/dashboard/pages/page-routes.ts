/**
 * What a page area (./credentials.ts, ./webhooks.ts, ...) registers its routes on: the contract between the
 * areas and the page router (./index.ts), in a module of its own so that the areas do not import the
 * router that imports them.
 */
import type { DashboardServices } from '../services';
import type { PageContext } from './forms';

/** What a page area registers its routes on, with the services of the function that serves it. */
export interface PageRoutes<S = DashboardServices> {
  services: S;
  /** A page: GET `path` (relative to /dashboard) for the signed-in user. */
  page(path: string, handler: (c: PageContext) => Response | Promise<Response>): void;
  /** A form action: POST `path` with the session and its CSRF token; `form` is the url-encoded body. */
  action(path: string, handler: (c: PageContext, form: URLSearchParams) => Response | Promise<Response>): void;
}

/** One area's pages (./credentials.ts, ./webhooks.ts, ...): registers its routes. */
export type PageArea<S> = (routes: PageRoutes<S>) => void;
