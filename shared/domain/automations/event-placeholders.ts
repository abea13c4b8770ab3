/**
 * Fills a `send_email` step's event placeholders (docs/automations.md, "Placeholders") from the event
 * that started the run. Pure, linear time (one pass of validate-definition.ts's PLACEHOLDER, which has no nested
 * quantifier).
 *
 * - `{{event.name}}`, `{{event.email}}`, `{{event.user_id}}`, `{{event.data.<path>}}`, spaces allowed
 *   inside the braces, take the value: strings as they are, numbers and booleans stringified, objects
 *   and arrays as compact JSON; HTML-escaped (& < > " ') with `escapeHtml`.
 * - A value the event lacks (absent key, null email/user_id, or a `null` data value) becomes "" and
 *   its path is listed once in `missing` (the run engine decides whether that fails the step).
 * - Every other `{{...}}` (`{{unsubscribe_url}}`, a template's `{{name}}`, `{{event.foo}}`) and an
 *   unclosed `{{` are left exactly as written.
 */
import { escapeHtml } from '../html';
import { lookupEventValue, type AutomationEvent } from './evaluate-condition';
import { eventPathProblem, PLACEHOLDER } from './validate-definition';

export interface FillOptions {
  /** HTML-escape the values (for an `html` body). */
  escapeHtml?: boolean;
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

export function fillEventPlaceholders(
  text: string,
  event: AutomationEvent,
  options: FillOptions = {},
): { text: string; missing: string[] } {
  const missing = new Set<string>();
  const filled = text.replace(PLACEHOLDER, (whole, raw: string) => {
    const path = raw.trim();
    if (!path.startsWith('event.') || eventPathProblem(path) !== null) return whole;
    const found = lookupEventValue(event, path);
    if (!found.found || found.value === null) {
      missing.add(path);
      return '';
    }
    const value = textOf(found.value);
    return options.escapeHtml ? escapeHtml(value) : value;
  });
  return { text: filled, missing: [...missing] };
}

/**
 * Fills every string inside a JSON value (arrays and plain objects walked; keys and other values kept):
 * template variables, address lists. `missing` is the union, each path once.
 */
/** A plain object of any realm (prototype null, or an Object.prototype), not a class instance. */
function isPlainObject(node: unknown): node is Record<string, unknown> {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return false;
  const prototype = Object.getPrototypeOf(node);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

export function fillEventPlaceholdersDeep<T>(value: T, event: AutomationEvent, options: FillOptions = {}): { value: T; missing: string[] } {
  const missing = new Set<string>();
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') {
      const result = fillEventPlaceholders(node, event, options);
      for (const path of result.missing) missing.add(path);
      return result.text;
    }
    if (Array.isArray(node)) return node.map(walk);
    if (isPlainObject(node)) {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node))
        Object.defineProperty(out, key, { value: walk(child), enumerable: true, writable: true, configurable: true });
      return out;
    }
    return node;
  };
  return { value: walk(value) as T, missing: [...missing] };
}
