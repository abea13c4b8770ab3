/**
 * The body of `POST /events` (spec, "Custom events"; docs/automations.md): the single source of its
 * validation and type. POST /events (shared/usecases/automations/runs/accept-event.ts) takes the parsed request;
 * this module only decides what a valid event is.
 *
 * - `name` (or its alias `type`; `name` wins when both are given, like the send request's aliases): an
 *   event name as triggers use them (letters, digits, `_ . : -`, 1-100).
 * - `user_id` (1-256 printable characters) and `email` (an address, lower-cased): who the event is about.
 *   Runs are per user: `user_id`, else `email` (waits and cancellations match on it), so an event without
 *   either can start runs but never resume or cancel one.
 * - `data`: a JSON object of at most MAX_EVENT_DATA_BYTES (serialised) and MAX_EVENT_DATA_DEPTH levels;
 *   conditions and `{{event.data.<key>}}` read it. Larger is a 400 naming `data` (a 1 MB payload is refused
 *   here, not stored).
 * - `dry_run` + `automation_id`: dashboard sessions only. An API-key request naming either is refused by
 *   acceptEvent (403), as the spec says; the schema checks they come together.
 */
import * as z from 'zod';
import { isEmailAddress, normaliseEmail } from '../mail/address';
import { describeFreeForm, freeFormObject, idField } from '../bounds';
import { EVENT_NAME } from './automation';

/** Serialised size of `data`: events are small facts, not documents (Resend's payloads are similar). */
export const MAX_EVENT_DATA_BYTES = 32 * 1024;
export const MAX_EVENT_DATA_DEPTH = 8;
const EVENT_DATA_BOUNDS = { maxBytes: MAX_EVENT_DATA_BYTES, maxDepth: MAX_EVENT_DATA_DEPTH };
const USER_ID = /^[\x21-\x7e](?:[\x20-\x7e]{0,254}[\x21-\x7e])?$/;
const FIELDS = ['name', 'type', 'user_id', 'email', 'data', 'dry_run', 'automation_id'];

const eventName = z.string({ error: 'name must be a string' }).regex(EVENT_NAME, 'name is 1-100 characters: letters, digits, _ . : and -');

export const eventRequestSchema = z
  .looseObject({
    name: eventName
      .optional()
      .describe('the event name, as triggers use it: 1-100 of letters, digits, _ . : - (required unless type is given)'),
    type: eventName.optional().describe('alias of `name` (name wins when both are sent)'),
    user_id: z
      .string({ error: 'user_id must be a string' })
      .regex(USER_ID, 'user_id is 1-256 printable ASCII characters, not starting or ending with a space')
      .optional()
      .describe('who the event is about: 1-256 printable ASCII characters; runs are per user (user_id, else email)'),
    email: z
      .string({ error: 'email must be a string' })
      .trim()
      .refine(isEmailAddress, 'email must be a valid email address')
      .transform(normaliseEmail)
      .optional()
      .describe("the user's address (lower-cased); without user_id, waits and cancellations match on it"),
    data: freeFormObject('data', EVENT_DATA_BOUNDS)
      .optional()
      .describe(`a JSON object, ${describeFreeForm(EVENT_DATA_BOUNDS)}: what conditions and {{event.data.<key>}} read`),
    dry_run: z
      .boolean({ error: 'dry_run must be a boolean' })
      .optional()
      .describe('dashboard sessions only (POST /api/events; 403 for API keys): run automation_id without sending or storing anything'),
    automation_id: idField('auto', 'automation_id', 'an automation')
      .optional()
      .describe('with dry_run only: the automation to dry-run (auto_...), in any status'),
  })
  .superRefine((body, ctx) => {
    for (const key of Object.keys(body)) {
      if (!FIELDS.includes(key))
        ctx.addIssue({ code: 'custom', path: [key], message: `unknown field; accepted fields: ${FIELDS.join(', ')}` });
    }
    if (body.name === undefined && body.type === undefined)
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'name (or type) is required' });
    if (body.dry_run === true && body.automation_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['automation_id'], message: 'automation_id is required with dry_run' });
    if (body.automation_id !== undefined && body.dry_run !== true)
      ctx.addIssue({ code: 'custom', path: ['dry_run'], message: 'automation_id is only used with dry_run: true' });
  })
  .transform((body) => ({
    name: (body.name ?? body.type)!,
    user_id: body.user_id ?? null,
    email: body.email ?? null,
    data: body.data ?? {},
    dry_run: body.dry_run === true,
    automation_id: body.automation_id ?? null,
  }));

export type EventRequest = z.output<typeof eventRequestSchema>;

/** Whom an event is about, for waits and cancellations: user_id, else the email address (null: nobody). */
export function eventSubject(event: Pick<EventRequest, 'user_id' | 'email'>): string | null {
  if (event.user_id !== null) return `user:${event.user_id}`;
  return event.email === null ? null : `email:${event.email}`;
}
