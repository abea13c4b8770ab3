/**
 * The suite, in the order it runs: the key first (nothing works without it), the sends through an SES
 * tenant before any other send from the domain, the webhook endpoint before the other sends (so their
 * events reach it), the emails and the account's resources, the errors, then the other checks only a
 * real SES settles, and the webhook's delivery and deletion last (by then the sends' events have been
 * published).
 */
import type { Step } from '../runner';
import {
  finalStatus,
  getEmail,
  idempotencyReplay,
  keyWorks,
  listEmails,
  scheduleAndCancel,
  sendBatch,
  senderDomain,
  sendOne,
} from './emails';
import { customEvent, domainLifecycle, errorEnvelopes, suppressionLifecycle, templateLifecycle } from './resources';
import { burstWithinQuota, byodkimDomain, nonAsciiDisplayName, sesTenantSends } from './ses-questions';
import { webhookCreate, webhookDelete, webhookDelivery } from './webhooks';

export const STEPS: readonly Step[] = [
  keyWorks,
  senderDomain,
  // Before any send from the domain: the send worker caches a domain's owner for 60 s, and this step
  // needs it to read the owner while the tenant owns the domain (see the step).
  sesTenantSends,
  webhookCreate,
  sendOne,
  getEmail,
  listEmails,
  finalStatus,
  sendBatch,
  scheduleAndCancel,
  idempotencyReplay,
  domainLifecycle,
  suppressionLifecycle,
  templateLifecycle,
  customEvent,
  errorEnvelopes,
  nonAsciiDisplayName,
  byodkimDomain,
  burstWithinQuota,
  webhookDelivery,
  webhookDelete,
];
