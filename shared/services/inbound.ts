/** Inbound mail (docs/inbound.md): the MX listener's recipient check, the received emails, and which raw messages were queued. */
import { InboundRawMarkerRepository } from '../adapters/store/inbound-raw-markers';
import { ReceivedEmailRepository } from '../adapters/store/received-emails';
import { ReceivingDomains } from '../usecases/inbound/receiving-domains';
import type { DomainServices } from './domains';
import type { Platform } from './platform';

export function buildInbound({ table, clock }: Pick<Platform, 'table' | 'clock'>, { domains }: Pick<DomainServices, 'domains'>) {
  return {
    receivingDomains: new ReceivingDomains({ domains, clock }),
    receivedEmails: new ReceivedEmailRepository(table),
    /** Whether each stored raw inbound message was queued (the MX listener, the inbound worker, the reconciler). */
    inboundRawMarkers: new InboundRawMarkerRepository(table),
  };
}

export type InboundServices = ReturnType<typeof buildInbound>;
