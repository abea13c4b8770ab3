/**
 * The `domain` argument of the tools that take a domain by its id or its name (the MTA-STS and inbound routes
 * tools), and its id: a name is looked up in the account's domains.
 */
import * as z from 'zod';
import type { ApiClient } from '../../api/client';
import { findDomainId } from '../../api/pages';
import { ToolError } from '../result';

export const domainArg = z.string().min(1).describe('the domain: its id (dom_...) or its name, e.g. example.com (see list_domains)');

/** The domain's id from its id or name; a name the account does not have is the tool's own not_found. */
export async function domainIdOf(api: ApiClient, idOrName: string): Promise<string> {
  const id = await findDomainId(api, idOrName);
  if (!id) throw new ToolError(`No domain named ${idOrName} in this account (list_domains shows them).`, 'not_found');
  return id;
}
