/**
 * A `send_email` step as a send request (docs/automations.md, "send_email"): the step's fields with the
 * run's event filled in (`{{event.*}}`), in the wire shape of `POST /emails`, parsed by the same schema,
 * so every rule of a send applies. Pure.
 *
 * - `to` defaults to `["{{event.email}}"]`; a recipient that fills to "" is dropped (an event without
 *   the value), and no recipient at all is the step's error.
 * - Values are HTML-escaped in `html`; line breaks become spaces in `subject` (one header line).
 * - Values the event lacks fill as "" and are listed in `missing` (the step's output shows them).
 * - The email's id is derived from (run, step key) and the step's start (stepEmailId): a retried step sends
 *   under the same id, and the email's own conditional put keeps it from being accepted twice
 *   (./step-actions.ts answers with the email there). Until 2026-11-28 a step's send was guarded by an
 *   idempotency record under stepIdempotencyKey instead; a step retried across that release looks there too.
 */
import type { SendEmailStep } from '#shared/domain/automations/automation';
import type { AutomationEvent } from '#shared/domain/automations/evaluate-condition';
import { fillEventPlaceholders, fillEventPlaceholdersDeep } from '#shared/domain/automations/event-placeholders';
import { deterministicId } from '#shared/domain/ids';
import { sendRequestSchema, type ParsedSendRequest } from '#shared/domain/emails/send-request';

export type StepEmail = { ok: true; request: ParsedSendRequest; missing: string[] } | { ok: false; error: string; missing: string[] };

/**
 * The id of the email a run's step sends: the same for every attempt of the step (its start is kept across
 * attempts: `step_started_at`), time-ordered by when the step began, unique to (run, step).
 */
export function stepEmailId(runId: string, stepKey: string, stepStartedAt: string): string {
  return deterministicId('msg', Date.parse(stepStartedAt), `automation step ${runId} ${stepKey}`);
}

/** The idempotency key a step's send was made under before 2026-11-28 (a space: no API request's key can hold one). */
export const stepIdempotencyKey = (runId: string, stepKey: string): string => `automation step ${runId} ${stepKey}`;

export function stepEmailRequest(step: SendEmailStep, event: AutomationEvent): StepEmail {
  const { key: _key, type: _type, next: _next, html, subject, ...rest } = step;
  const plain = fillEventPlaceholdersDeep({ ...rest, to: rest.to?.length ? rest.to : ['{{event.email}}'] }, event);
  const missing = new Set(plain.missing);
  const body: Record<string, unknown> = { ...plain.value };
  body.to = (plain.value.to as string[]).map((address) => address.trim()).filter((address) => address !== '');
  if (Array.isArray(body.reply_to)) body.reply_to = (body.reply_to as string[]).filter((address) => address.trim() !== '');
  if (subject !== undefined) {
    const filled = fillEventPlaceholders(subject, event);
    filled.missing.forEach((path) => {
      missing.add(path);
    });
    body.subject = filled.text.replace(/[\r\n]+/g, ' ');
  }
  if (html !== undefined) {
    const filled = fillEventPlaceholders(html, event, { escapeHtml: true });
    filled.missing.forEach((path) => {
      missing.add(path);
    });
    body.html = filled.text;
  }
  const missingList = [...missing];
  if ((body.to as string[]).length === 0) {
    return {
      ok: false,
      error: `no recipient: the step's to (${(rest.to ?? ['{{event.email}}']).join(', ')}) is empty for this event`,
      missing: missingList,
    };
  }
  const parsed = sendRequestSchema.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'request'}: ${issue.message}`);
    return { ok: false, error: `invalid email for this event: ${problems.join('; ')}`, missing: missingList };
  }
  return { ok: true, request: parsed.data, missing: missingList };
}
