/** Delivery (the send worker): sending domains' facts, cached, and the send workers' shared pace to SES's send rate. */
import { SesSendBudget } from '../adapters/store/ses-send-budget';
import { SendingDomainFactsCache } from '../usecases/delivery/sending-domain-facts';
import type { DomainServices } from './domains';
import type { Platform } from './platform';

export function buildDelivery({ table, clock }: Pick<Platform, 'table' | 'clock'>, { domains }: Pick<DomainServices, 'domains'>) {
  return {
    /** Sending domains' facts for the send worker, cached (sending-domain-facts.ts); their keys stay sealed: SES signs. */
    sendingDomains: new SendingDomainFactsCache({ domains, clock }),
    /** The send workers' shared pace to SES's send rate. */
    sesSendBudget: new SesSendBudget(table),
  };
}

export type DeliveryServices = ReturnType<typeof buildDelivery>;
