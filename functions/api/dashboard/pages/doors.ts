/**
 * Forms that a session door also serves (docs/dashboard.md, "The doors from the page"). Such a form
 * still posts to its page action (url-encoded, CSRF field: every form works without script); its
 * attributes tell the page script (./script.ts) to send the same action to the door instead, as JSON
 * with the form's CSRF token in `X-CSRF-Token`, and to show the answer in the page:
 *
 *   data-door       the door's path (`/api/events`, `/api/webhooks/...`): POST, same origin
 *   data-door-kind  how the script builds the body and shows the answer (./script.ts `KINDS`)
 *   data-done       the sentence shown on success (the one the page action flashes)
 *   data-*          what the kind needs besides the form's fields (e.g. `data-automation-id`)
 */
import { html, type Html } from './layout';

export type DoorKind = 'dry-run' | 'replay';

export interface FormDoor {
  path: string;
  kind: DoorKind;
  done: string;
  /** Extra `data-<name>` attributes (names in kebab case). */
  data?: Record<string, string>;
}

/** The form's door attributes (escaped), for postForm's and buttonForm's `attributes`. */
export function doorAttributes(door: FormDoor): Html {
  const extra = Object.entries(door.data ?? {}).map(([name, value]) => html` data-${name}="${value}"`);
  return html`data-door="${door.path}" data-door-kind="${door.kind}" data-done="${door.done}"${extra}`;
}
