/** Inbound mail (docs/inbound.md): the worker's parsing (mailparser) and SPF/DKIM/DMARC checks (mailauth). */
import { checkAuthentication, type AuthenticationInput } from '../inbound/check-authentication';
import { parseInbound } from '../inbound/parse-message';
import type { CoreServices } from './core';

export function buildInbound(core: Pick<CoreServices, 'dns'>) {
  const { dns } = core;
  return {
    parseInbound,
    checkAuthentication: (input: AuthenticationInput) => checkAuthentication(input, (name, rrtype) => dns.resolve(name, rrtype)),
  };
}

export type InboundServices = ReturnType<typeof buildInbound>;
