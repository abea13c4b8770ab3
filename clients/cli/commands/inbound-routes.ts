/**
 * `mailservice domains routes <id|name> [--set <file.json> | --clear]` (docs/inbound.md, "Routes"): shows a
 * receiving domain's inbound routes (GET /domains/{id}/inbound-routes) as a line and a table in their order;
 * `--set` replaces them with the routes of a JSON file (PUT), `--clear` removes them (PUT `[]`), both then shown
 * as a read shows them. A `dom_` id or the domain's name; `--json` prints the answer.
 */
import type { Command } from 'commander';
import {
  getInboundRoutes,
  inboundRoutesLine,
  routeTarget,
  setInboundRoutes,
  type InboundRoute,
  type InboundRoutesView,
} from '../../api/inbound-routes';
import { contextOf } from '../context';
import { UsageError } from '../errors';
import { readTextFile } from '../options';
import type { CliIo } from '../io';
import { formatTable, printJson } from '../output';
import { domainIdOf } from './domains';

interface RoutesOptions {
  set?: string;
  clear?: boolean;
}

/** The line, then one row a route in order: what it matches, what it does, and its note. */
export function describeInboundRoutes(view: InboundRoutesView): string {
  const table = formatTable(
    ['#', 'recipient', 'sender', 'action', 'webhooks / forward / message', 'description'],
    view.routes.map((route, index) => [
      index + 1,
      route.match.recipient,
      route.match.sender,
      route.action.type,
      routeTarget(route),
      route.description,
    ]),
  );
  return `inbound routes of ${inboundRoutesLine(view)}\n${view.routes.length ? table : ''}`;
}

/**
 * The routes of a --set file's text: `{"routes": [...]}` (so GET's answer, as `--json` prints it, can be edited
 * and set again; its other members are left out) or a bare array of routes. Only the shape is checked here;
 * each route's fields are the API's to check (its 400 names them). Usage errors, before any request.
 */
export function routesOfJson(file: string, text: string): InboundRoute[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not JSON (${(error as Error).message})`);
  }
  const routes = Array.isArray(parsed) ? parsed : (parsed as { routes?: unknown } | null)?.routes;
  if (!Array.isArray(routes)) throw new UsageError(`${file} must hold {"routes": [...]} or an array of routes`);
  const notObject = routes.findIndex((route) => typeof route !== 'object' || route === null || Array.isArray(route));
  if (notObject >= 0) throw new UsageError(`${file}: route ${notObject + 1} is not an object ({"match": {...}, "action": {...}})`);
  return routes as InboundRoute[];
}

/** The routes to PUT from the flags: null without --set or --clear (a read). Usage errors before any request. */
export function routesToSet(options: RoutesOptions): InboundRoute[] | null {
  if (options.set !== undefined && options.clear) throw new UsageError('--set and --clear go alone (--clear is --set of [])');
  if (options.clear) return [];
  return options.set === undefined ? null : routesOfJson(options.set, readTextFile(options.set));
}

export function registerInboundRoutes(domains: Command, io: CliIo): void {
  domains
    .command('routes <id-or-name>')
    .description(
      "a receiving domain's inbound routes, in order (the first that matches a recipient decides); --set replaces them, --clear removes them",
    )
    .option('--set <file.json>', 'replace the routes with those of a JSON file, {"routes": [...]} or an array (PUT; needs domains:write)')
    .option('--clear', 'remove every route (PUT []; needs domains:write)')
    .action(async (idOrName: string, options: RoutesOptions, command: Command) => {
      const routes = routesToSet(options);
      const ctx = contextOf(io, command);
      const client = ctx.client();
      const domainId = await domainIdOf(client, idOrName);
      const view = routes ? await setInboundRoutes(client, domainId, routes) : await getInboundRoutes(client, domainId);
      if (ctx.json) return printJson(io, view);
      io.out(describeInboundRoutes(view));
    });
}
