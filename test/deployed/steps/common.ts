/** What several steps do: send, wait for an email's outcome, poll, and register a DELETE for the cleanup. */
import { waitFor } from '../../support/wait';
import { check, CheckFailed, type ApiAnswer } from '../client';
import { Skip, type RunContext } from '../runner';

/** How often a wait asks again: GET /emails/{id} is not rate-limited, but a deployment is billed per request. */
const POLL_MS = 500;

/** Polls `probe` until it returns a value, within the run's --timeout; a timeout fails the step with the last answer. */
export async function until<T>(ctx: RunContext, what: string, probe: () => Promise<T | undefined | null | false>): Promise<T> {
  try {
    return await waitFor(probe, what, ctx.options.timeoutMs, POLL_MS);
  } catch (error) {
    if (error instanceof CheckFailed) throw error;
    throw new CheckFailed((error as Error).message, ctx.api.last);
  }
}

/** The subject of every email the run sends: says where it came from, should a real mailbox see it. */
export function subject(ctx: RunContext, what: string): string {
  return `test:deployed ${ctx.runId}: ${what}`;
}

/** A send request from --from to --to with a text body (and whatever `extra` adds or overrides). */
export function sendBody(ctx: RunContext, what: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    from: ctx.options.from,
    to: ctx.options.to,
    subject: subject(ctx, what),
    text: `Sent by npm run test:deployed (run ${ctx.runId}) to check ${what}.`,
    ...extra,
  };
}

const RECIPIENT_REFUSED_HINT =
  'the sender cannot reach --to: the sandbox sender (and any sender before production is unlocked) reaches only the account email. Pass --to <the account email>, or --from an address on a verified domain of an account with a payment method';

/** POST /emails; answers the new email's id. A refusal fails the step with the API's answer (and a hint for the sandbox's). */
export async function send(ctx: RunContext, body: Record<string, unknown>, headers?: Record<string, string>): Promise<string> {
  const answer = await ctx.api.request('POST', '/emails', { body, headers });
  if (answer.status === 403 && answer.body?.error?.code === 'recipient_not_allowed')
    throw new CheckFailed(`POST /emails answered 403 recipient_not_allowed: ${RECIPIENT_REFUSED_HINT}`, answer);
  check(answer.status === 200, `POST /emails answered ${answer.status}, expected 200`, answer);
  check(/^msg_/.test(answer.body?.id ?? ''), 'POST /emails answered no msg_ id', answer);
  return answer.body.id as string;
}

/**
 * The final status SES's answer should give the recipient: the mailbox simulator's bounce and complaint
 * addresses have outcomes of their own (https://docs.aws.amazon.com/ses/latest/dg/send-an-email-from-console.html);
 * every other recipient is expected delivered.
 */
export function expectedOutcome(to: string): 'delivered' | 'bounced' {
  return /^bounce(\+[^@]*)?@simulator\.amazonses\.com$/i.test(to) ? 'bounced' : 'delivered';
}

const FINAL = new Set(['delivered', 'bounced', 'failed', 'cancelled']);

/** Polls GET /emails/{id} until the email reaches a final status, which must be the expected outcome. */
export async function waitForOutcome(ctx: RunContext, id: string): Promise<Record<string, any>> {
  const email = await until(ctx, `email ${id} to reach a final status`, async () => {
    const answer = await ctx.api.expect(200, 'GET', `/emails/${id}`);
    return FINAL.has(answer.body.email.status) ? (answer.body.email as Record<string, any>) : undefined;
  });
  const wanted = expectedOutcome(ctx.options.to);
  check(
    email.status === wanted,
    `email ${id} ended ${email.status} (last_event ${email.last_event}, bounce_reason ${JSON.stringify(email.bounce_reason)}), expected ${wanted}`,
    ctx.api.last,
  );
  return email;
}

/** Seconds between two ISO timestamps, for notes ("delivered 2.1 s after it was accepted"). */
export function secondsBetween(from: string, to: string): string {
  return `${((Date.parse(to) - Date.parse(from)) / 1000).toFixed(1)} s`;
}

/** Registers a DELETE of `path` with the cleanup; gone already (404) counts as removed. */
export function removeAtEnd(ctx: RunContext, what: string, path: string): void {
  ctx.cleanup.add(what, async () => {
    await ctx.api.expect([200, 404], 'DELETE', path);
  });
}

/** The error envelope of the spec (Errors): `{error: {message, code?, details?, ...}}`; with `code`, that code. */
export function checkEnvelope(answer: ApiAnswer, code?: string): void {
  const error = answer.body?.error;
  check(
    error && typeof error.message === 'string' && error.message.length > 0,
    `answer ${answer.status} has no {"error": {"message"}} envelope`,
    answer,
  );
  if (code) check(error.code === code, `answer ${answer.status} has code ${JSON.stringify(error.code)}, expected ${code}`, answer);
}

/**
 * POST of a new resource, which must answer `status`. A create the account has no room for (403
 * `plan_limit`: domains per plan; `limit_exceeded`: 20 webhook endpoints, 1,000 templates; docs/api.md,
 * Errors) is the product working as documented: the step is skipped, saying so.
 */
export async function create(ctx: RunContext, status: number, path: string, body: unknown, what: string): Promise<ApiAnswer> {
  const answer = await ctx.api.request('POST', path, { body });
  const code = answer.body?.error?.code;
  if (answer.status === 403 && (code === 'plan_limit' || code === 'limit_exceeded'))
    throw new Skip(`the account has no room for another ${what} (${code}): free one, or run on an account of its own`);
  check(answer.status === status, `POST ${path} answered ${answer.status}, expected ${status}`, answer);
  return answer;
}
