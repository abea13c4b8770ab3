/**
 * Forms that a session door also serves (docs/dashboard.md, "From the browser: the CSP and the page
 * script"). Such a form still posts to its page action (url-encoded, CSRF field: every form works
 * without script); its attributes tell the page script (./script.ts) to send the same action to the door
 * instead, as JSON with the form's CSRF token in `X-CSRF-Token`, and to show the answer in the page:
 *
 *   data-door       the door's path: its API-key route's path below SESSION_API_BASE (`/api/events`,
 *                   `/api/webhooks/...`): POST, same origin
 *   data-door-kind  how the script builds the body and shows the answer (./script.ts `KINDS`)
 *   data-done       the sentence shown on success (the one the page action flashes)
 *   data-*          what the kind needs besides the form's fields (e.g. `data-automation-id`)
 */
import { html, type Html } from './layout';

/**
 * Where ../app.ts mounts the session doors (../api-routes.ts): each door is its API-key route's path below
 * it (`/api` + `/events`), as docs/openapi.json lists them.
 */
export const SESSION_API_BASE = '/api';

type DoorKind = 'dry-run' | 'replay';

interface FormDoor {
  /** The API-key route's path (`/events`, `/webhooks/{id}/...`): the door is the same route below SESSION_API_BASE. */
  route: string;
  kind: DoorKind;
  done: string;
  /** Extra `data-<name>` attributes (names in kebab case). */
  data?: Record<string, string>;
}

/** The form's door attributes (escaped), for postForm's and buttonForm's `attributes`. */
export function doorAttributes(door: FormDoor): Html {
  const extra = Object.entries(door.data ?? {}).map(([name, value]) => html` data-${name}="${value}"`);
  return html`data-door="${SESSION_API_BASE}${door.route}" data-door-kind="${door.kind}" data-done="${door.done}"${extra}`;
}
