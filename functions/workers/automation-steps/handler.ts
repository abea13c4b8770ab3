/**
 * Automation steps worker: SQS batch of {run_id, step_index, wake?} -> runStep (claim, do, complete;
 * shared/usecases/automations/runs/run-step.ts). Each message is one run's step: a failure is reported for that
 * message alone and never holds back another run.
 */
import type { SQSHandler } from 'aws-lambda';
import type { ParsedSendRequest } from '#shared/domain/emails/send-request';
import type { Principal } from '#shared/usecases/access/principal';
import { automationStepMessageSchema } from '#shared/domain/messages';
import { logInfo } from '#shared/lib/log';
import { sendEmail } from '#shared/usecases/send';
import { runStep, STEP_LEASE_MS } from '#shared/usecases/automations/runs/run-step';
import { stepLookups } from '#shared/usecases/automations/runs/step-lookups';
import { forEachRecord } from '#shared/doors/worker/for-each-record';
import { buildPlatform } from '#shared/services/platform';
import { buildSendingStack } from '#shared/services/sending';
import { buildSuppressions } from '#shared/services/suppressions';
import { buildAutomations } from '#shared/services/automations';
import { buildMailDomains } from '#shared/services/mail-domains';
import { buildMessaging } from '#shared/services/messaging';
import { buildBlobs } from '#shared/services/blobs';
import { buildSchedules } from '#shared/services/schedules';

// The composition root: only the capabilities the worker uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const services = {
  ...platform,
  ...buildSendingStack(platform),
  ...buildSuppressions(platform),
  ...buildAutomations(platform),
  ...buildMailDomains(platform),
  ...buildMessaging(platform),
  ...buildBlobs(platform.config),
  ...buildSchedules(platform.config),
};
/** STEP_LEASE_S shortens the claim's lease (tests of a dead attempt). */
const leaseMs = Number(process.env.STEP_LEASE_S) > 0 ? Number(process.env.STEP_LEASE_S) * 1000 : STEP_LEASE_MS;
const deps = {
  ...services,
  // The automation and the account every step of a run reads, kept HOT_LOOKUPS_CACHE_MS.
  ...stepLookups(services, platform.config.hotLookupsCacheMs),
  leaseMs,
  sendEmail: (principal: Principal, request: ParsedSendRequest, emailId: string) =>
    sendEmail(services, { principal }, request, { emailId }),
};

export const handler: SQSHandler = forEachRecord('automation-steps', automationStepMessageSchema, async (message) => {
  const outcome = await runStep(deps, message);
  logInfo('automation-steps', { run_id: message.run_id, step_index: message.step_index, wake: message.wake === true, outcome });
});
