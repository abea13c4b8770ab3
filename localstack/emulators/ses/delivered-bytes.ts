/**
 * The bytes SES delivers for an accepted message, in SES's order: its own Message-ID and Date
 * (./message-id.ts), then open/click tracking when the configuration set subscribes to them
 * (./tracking.ts), then its BYODKIM signature over the result (./dkim-signing.ts).
 */
import { signWithByodkim } from './dkim-signing';
import { replaceMessageIdAndDate } from './message-id';
import type { SesStore } from './store';
import { applyTracking, trackingPlan } from './tracking';
import type { ConfigurationSet } from './types';

export interface DeliveredBytesInput {
  raw: Buffer;
  messageId: string;
  region: string;
  acceptedAt: Date;
  configSet: ConfigurationSet | undefined;
  /** The From header's address (the DKIM signing domain is its domain). */
  fromAddress: string;
}

export async function deliveredBytes(store: Pick<SesStore, 'getIdentity'>, input: DeliveredBytesInput): Promise<Buffer> {
  const renamed = replaceMessageIdAndDate(input.raw, input.messageId, input.region, input.acceptedAt);
  const tracked = applyTracking(renamed, trackingPlan(input.configSet, input.region), input.messageId);
  return signWithByodkim(store, tracked, input.fromAddress);
}
