/**
 * `POST /events` with `dry_run` and `automation_id` (spec, "Custom events"; docs/automations.md, "Dry
 * run"): that one automation of the caller's account runs for the event, whatever its status (draft,
 * paused, active), with delays and waits skipped and sends stubbed (shared/domain/automations/dry-run.ts).
 * The HTTP door lets only dashboard sessions in (API keys get 403); this use case only reads.
 *
 * A `send_email` step's preview is the email the real run would send, built by the same code: the step
 * as a send request with `{{event.*}}` filled (runs/step-email.ts: `to` defaulting to the event's email,
 * values HTML-escaped in html), then its template's published version rendered with the filled variables
 * (send/template-content.ts). Whatever would make the real step fail (no recipient, an address that is
 * not one once filled, an unknown or unpublished template, a variable without value or fallback) fails
 * the dry run at that step with the same message (`validation_error: ...` as the run's error).
 *
 * Nothing is written: no run, no email, no webhook, no idempotency record. The sending rules that depend on
 * the moment (suppressions, verified domains, plan limits) are not checked: they are the send's.
 */
import type { Automation, SendEmailStep } from '../../domain/automations/automation';
import { isAutomationId } from '../../domain/automations/automation';
import { dryRunSteps, type DryRunEvent, type DryRunResult, type EmailPreviewResult } from '../../domain/automations/dry-run';
import type { EventRequest } from '../../domain/automations/event-request';
import { formatMailbox } from '../../domain/mail/address';
import type { SendRequest } from '../../domain/emails/send-request';
import { AppError, NotFoundError } from '../../domain/errors';
import type { AutomationRepository } from '../../adapters/store/automations';
import type { GetPublishedOutcome } from '../../adapters/store/templates';
import { requireAutomationAccess } from './automations';
import type { Principal } from '../access/principal';
import { stepEmailRequest } from './runs/step-email';
import type { PublishedTemplates } from '../send/published-templates';
import { completeRequest } from '../send/template-content';

export interface AutomationDryRunDeps {
  automations: Pick<AutomationRepository, 'get'>;
  publishedTemplates: Pick<PublishedTemplates, 'getPublished'>;
}

export interface AutomationDryRun extends DryRunResult {
  dry_run: true;
  automation: { id: string; name: string; status: Automation['status']; version: number };
  event: DryRunEvent;
  /** Whether the event is the automation's trigger (a dry run runs it either way). */
  matches_trigger: boolean;
}

/** The email `step` would send for `event`, or the error the real step would fail with. */
async function previewStep(
  deps: AutomationDryRunDeps,
  accountId: string,
  step: SendEmailStep,
  event: DryRunEvent,
): Promise<EmailPreviewResult> {
  const built = stepEmailRequest(step, event);
  if (!built.ok) return { error: built.error };
  let request: SendRequest;
  try {
    request = await completeRequest(deps, accountId, built.request);
  } catch (error) {
    // As the run engine: a refusal (4xx) is the step's error; anything else (the store down) is the request's.
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    return { error: `${error.code}: ${error.message}` };
  }
  return {
    to: request.to,
    from: formatMailbox(request.from),
    ...(request.reply_to === undefined ? {} : { reply_to: request.reply_to }),
    subject: request.subject,
    ...(request.html === undefined ? {} : { html: request.html }),
    ...(request.text === undefined ? {} : { text: request.text }),
    ...(request.from_template === undefined
      ? {}
      : { template: { id: request.from_template.alias, version: request.from_template.version } }),
    category: request.category ?? 'transactional',
    ...(request.tenant === undefined ? {} : { tenant: request.tenant }),
    ...(request.tags === undefined ? {} : { tags: request.tags }),
    missing: built.missing,
  };
}

export async function dryRunAutomation(
  deps: AutomationDryRunDeps,
  principal: Principal,
  automationId: string,
  eventRequest: Pick<EventRequest, 'name' | 'user_id' | 'email' | 'data'>,
): Promise<AutomationDryRun> {
  requireAutomationAccess(principal);
  const accountId = principal.account.id;
  const automation = isAutomationId(automationId) ? await deps.automations.get(accountId, automationId) : null;
  if (!automation) throw new NotFoundError('Automation', automationId);

  const event: DryRunEvent = { name: eventRequest.name, user_id: eventRequest.user_id, email: eventRequest.email, data: eventRequest.data };

  // The walk is synchronous and pure; previews need reads (a template's published version), so each
  // send step's preview is built first, each alias read once. A preview of a step the walk never
  // reaches is not shown, nor is its error.
  const reads = new Map<string, Promise<GetPublishedOutcome>>();
  const templates = {
    getPublished: (account: string, alias: string) => {
      let read = reads.get(alias);
      if (!read) {
        read = deps.publishedTemplates.getPublished(account, alias);
        reads.set(alias, read);
      }
      return read;
    },
  };
  const previews = new Map<SendEmailStep, EmailPreviewResult>();
  for (const step of automation.steps) {
    if (step.type === 'send_email')
      previews.set(step, await previewStep({ ...deps, publishedTemplates: templates }, accountId, step, event));
  }

  const result = dryRunSteps(automation.steps, event, (step) => previews.get(step) ?? { error: `step ${step.key} has no preview` });
  return {
    dry_run: true,
    automation: { id: automation.id, name: automation.name, status: automation.status, version: automation.version },
    event,
    matches_trigger: automation.trigger.event === event.name,
    ...result,
  };
}
