/**
 * The template renderer (docs/templates.md, "Placeholders"): flat `{{name}}` placeholders, optional
 * spaces inside (`{{ name }}`), names `[A-Za-z_][A-Za-z0-9_]*`. Pure; the render endpoint and the send
 * path both call it.
 *
 * - A placeholder takes the value given for it, else its declared non-null fallback_value, else it is
 *   missing: left as written, listed once in `missing`, one `missing_variable` warning.
 * - html gets the value HTML-escaped (& < > " '); text gets it as is; subject gets it with control
 *   characters (CR and LF included) replaced by a space, so a value can never add a header line.
 * - `{{unsubscribe_url}}` (RESERVED_VARIABLES) is never substituted, missing or warned about: it is left
 *   (as `{{unsubscribe_url}}`, spaces removed) for the send worker, which puts each email's signed link there.
 * - Anything else between `{{` and `}}` (`{{user.name}}`, `{{#if x}}`, `{{{x}}}`) is left as written
 *   with an `invalid_placeholder` warning; a `{{` without its `}}`, or a `}}` without its `{{`, with an
 *   `unbalanced_braces` warning.
 *
 * Linear time: one left-to-right scan per field with remembered positions of the next `{{` and `}}`
 * (each part of the text is searched once), no regular expression over the template text; a
 * placeholder's inside is only matched against the name pattern (no nested quantifiers).
 */
import { escapeHtml } from '../html';
import { ValidationError } from '../errors';

export const RESERVED_VARIABLES = ['unsubscribe_url'] as const; // left in place by the renderer; the send worker fills it

export interface TemplateVariable {
  key: string;
  type: 'string' | 'number';
  fallback_value?: string | number | null;
}

export type VariableValue = string | number | boolean | null;

export type RenderField = 'subject' | 'html' | 'text';

export interface RenderWarning {
  code: 'missing_variable' | 'undeclared_variable' | 'unknown_variable' | 'unbalanced_braces' | 'invalid_placeholder';
  message: string;
  variable?: string;
  field?: RenderField;
}

export interface RenderInput {
  subject: string;
  html?: string | null;
  text?: string | null;
}

export interface RenderOutput {
  subject: string;
  html: string | null;
  text: string | null;
  warnings: RenderWarning[];
  /** Names used without a value or a fallback, once each, in order of first use. */
  missing: string[];
}

/** A placeholder's name (and a declared variable's key, which is also at most 64 characters). */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Most warnings of one code a rendering returns (100 KB of odd braces could otherwise make thousands). */
export const MAX_WARNINGS_PER_CODE = 50;

/**
 * Most characters the rendered subject, html and text may hold together (values are not length-limited
 * one by one: a long value in many placeholders is what this bounds). Far above any real email (mail
 * clients clip html past about 100 KB), and below what a function may return (6 MB) or SES may send.
 */
export const MAX_RENDERED_CHARS = 1_000_000;

/**
 * Bounds of a request's `variables` object (shared/domain/bounds.ts): values are one level (strings,
 * numbers, booleans, null), checked by variableValueProblems; anything rendering past MAX_RENDERED_CHARS
 * is refused anyway, so 1 MB of JSON is room enough. Rendered, never stored as they are.
 */
export const VARIABLE_VALUES_BOUNDS = { maxBytes: 1024 * 1024, stored: false } as const;

/** The rendered template would exceed MAX_RENDERED_CHARS: a 400, like any other invalid variable value. */
export class RenderTooLargeError extends ValidationError {
  constructor(path = 'variables') {
    const message = `the rendered template would be longer than ${MAX_RENDERED_CHARS} characters; shorten the variable values`;
    super(`Invalid ${path}: ${message}.`, { details: { fields: [{ field: path, message }], limit: MAX_RENDERED_CHARS } });
  }
}

const RESERVED: ReadonlySet<string> = new Set(RESERVED_VARIABLES);
const FIELD_ORDER: readonly RenderField[] = ['subject', 'html', 'text'];

export function isReservedVariable(name: string): boolean {
  return RESERVED.has(name);
}

/** An own property only: `{{constructor}}` never finds Object.prototype's. */
function own(values: Readonly<Record<string, unknown>>, name: string): unknown {
  return Object.hasOwn(values, name) ? values[name] : undefined;
}

/** A value that can be put in a template as text; null (and undefined, objects, arrays) are no value. */
function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return String(value);
  return null;
}

/** A value for a header: every control character (CR, LF, tab, NUL, DEL...) becomes a space. */
function oneLine(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f]/g, ' ');
}

/** What a warning quotes of a placeholder: short, on one line. */
function quoted(token: string): string {
  const line = oneLine(token);
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

/** The name inside `{{ ... }}`, or null when the inside is not a name. */
function placeholderName(inner: string): string | null {
  const name = inner.trim();
  return VARIABLE_NAME.test(name) ? name : null;
}

/** What one rendering collects across its fields. */
class Rendering {
  readonly warnings: RenderWarning[] = [];
  readonly missing: string[] = [];
  readonly used = new Set<string>();
  private readonly missingNames = new Set<string>();
  private readonly counts = new Map<RenderWarning['code'], number>();
  private readonly seen = new Set<string>();
  private readonly resolved = new Map<string, string | null>();
  private readonly declared: ReadonlyMap<string, TemplateVariable>;
  private size = 0;

  constructor(
    declared: readonly TemplateVariable[],
    private readonly values: Readonly<Record<string, unknown>>,
  ) {
    this.declared = new Map(declared.map((variable) => [variable.key, variable]));
  }

  isDeclared(name: string): boolean {
    return this.declared.has(name);
  }

  /** The given value, else the declared non-null fallback, else null (missing). */
  valueOf(name: string): string | null {
    if (!this.resolved.has(name)) {
      const given = textOf(own(this.values, name));
      this.resolved.set(name, given ?? textOf(this.declared.get(name)?.fallback_value ?? null));
    }
    return this.resolved.get(name)!;
  }

  /** Adds a warning unless the same one was given already, at most MAX_WARNINGS_PER_CODE of a code. */
  warn(once: string, warning: RenderWarning): void {
    const key = `${warning.code}\u0000${once}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const count = this.counts.get(warning.code) ?? 0;
    if (count >= MAX_WARNINGS_PER_CODE) return;
    this.counts.set(warning.code, count + 1);
    this.warnings.push(warning);
  }

  addMissing(name: string): void {
    if (!this.missingNames.has(name)) {
      this.missingNames.add(name);
      this.missing.push(name);
    }
  }

  /** Counts what goes into the output, refusing a rendering larger than MAX_RENDERED_CHARS. */
  grow(length: number): void {
    this.size += length;
    if (this.size > MAX_RENDERED_CHARS) throw new RenderTooLargeError();
  }
}

/** Finds `needle` from non-decreasing positions, searching each part of `source` once. */
function finder(source: string, needle: string): (from: number) => number {
  // -2: not searched yet; -1: none from the last search on (so none from any later position either).
  let at = -2;
  return (from) => {
    if (at !== -1 && at < from) at = source.indexOf(needle, from);
    return at;
  };
}

/** One field's output: the source's text copied in slices, substitutions in between. */
class FieldOutput {
  private readonly parts: string[] = [];
  /** Where the source's text not yet copied starts. */
  private copied = 0;

  constructor(
    private readonly source: string,
    private readonly rendering: Rendering,
  ) {}

  /** Copies the source's text up to `end`. */
  copyTo(end: number): void {
    if (end <= this.copied) return;
    this.rendering.grow(end - this.copied);
    this.parts.push(this.source.slice(this.copied, end));
    this.copied = end;
  }

  /** Puts `text` in place of the source's characters from `start` to `stop`. */
  replace(start: number, stop: number, text: string): void {
    this.copyTo(start);
    this.rendering.grow(text.length);
    this.parts.push(text);
    this.copied = stop;
  }

  finish(): string {
    this.copyTo(this.source.length);
    return this.parts.join('');
  }
}

/** A stray `{{` or `}}` (left as written), or a `{{...}}` from `open` to `stop` with what is inside. */
type Token = { kind: 'open' | 'close'; at: number } | { kind: 'tag'; open: number; stop: number; inner: string };

/** The next token of `source` from `from`; null when none is left. */
function nextToken(source: string, openAt: (from: number) => number, closeAt: (from: number) => number, from: number): Token | null {
  const open = openAt(from);
  const close = closeAt(from);
  if (close !== -1 && (open === -1 || close < open)) return { kind: 'close', at: close };
  if (open === -1) return null;
  const end = closeAt(open + 2);
  const reopened = openAt(open + 2);
  // No `}}` before the next `{{` (or at all): this `{{` is text; the scan goes on after it.
  if (end === -1 || (reopened !== -1 && reopened < end)) return { kind: 'open', at: open };
  const inner = source.slice(open + 2, end);
  // `{{{name}}}` (another engine's unescaped form): its third `}` belongs to it.
  const stop = inner.startsWith('{') && source[end + 2] === '}' ? end + 3 : end + 2;
  return { kind: 'tag', open, stop, inner };
}

function warnUnbalanced(rendering: Rendering, field: RenderField, kind: 'open' | 'close', at: number): void {
  rendering.warn(`${field}:${kind}`, {
    code: 'unbalanced_braces',
    message:
      kind === 'open'
        ? `${field} has a "{{" without a matching "}}" (first at character ${at}); it is left as written.`
        : `${field} has a "}}" without a matching "{{" (first at character ${at}); it is left as written.`,
    field,
  });
}

/** What a `{{...}}` (`token`, `inner` inside its braces) becomes in `field`; null: it is left as written (with a warning). */
function substitution(token: string, inner: string, field: RenderField, rendering: Rendering): string | null {
  const name = placeholderName(inner);
  if (name === null) {
    rendering.warn(`${field}:${token}`, {
      code: 'invalid_placeholder',
      message: `${field} has "${quoted(token)}", which is not a placeholder (a flat {{name}}: letters, digits and _, not starting with a digit); it is left as written.`,
      field,
    });
    return null;
  }
  if (RESERVED.has(name)) return `{{${name}}}`;
  rendering.used.add(name);
  if (!rendering.isDeclared(name)) {
    rendering.warn(name, {
      code: 'undeclared_variable',
      message: `Variable "${name}" is used in ${field} but not declared in the template's variables.`,
      variable: name,
      field,
    });
  }
  const value = rendering.valueOf(name);
  if (value === null) {
    rendering.addMissing(name);
    rendering.warn(name, {
      code: 'missing_variable',
      message: `Variable "${name}" has no value and no fallback_value; {{${name}}} is left as written (first in ${field}).`,
      variable: name,
      field,
    });
    return null;
  }
  return field === 'html' ? escapeHtml(value) : field === 'subject' ? oneLine(value) : value;
}

function renderField(source: string, field: RenderField, rendering: Rendering): string {
  const output = new FieldOutput(source, rendering);
  const openAt = finder(source, '{{');
  const closeAt = finder(source, '}}');
  // One warning per field for each kind of stray brace.
  const warned = new Set<'open' | 'close'>();
  let from = 0;
  for (let token = nextToken(source, openAt, closeAt, from); token; token = nextToken(source, openAt, closeAt, from)) {
    if (token.kind !== 'tag') {
      if (!warned.has(token.kind)) warnUnbalanced(rendering, field, token.kind, token.at);
      warned.add(token.kind);
      from = token.at + 2;
      continue;
    }
    from = token.stop;
    const text = substitution(source.slice(token.open, token.stop), token.inner, field, rendering);
    if (text !== null) output.replace(token.open, token.stop, text);
  }
  return output.finish();
}

/**
 * Renders subject, html and text with `values` (the caller checked them with checkVariableValues:
 * values that are not a string, number or boolean count as absent here). Throws RenderTooLargeError
 * (400) when the output would exceed MAX_RENDERED_CHARS.
 */
export function renderTemplate(
  input: RenderInput,
  declared: readonly TemplateVariable[],
  values: Readonly<Record<string, unknown>>,
): RenderOutput {
  const rendering = new Rendering(declared, values);
  const sources: Record<RenderField, string | null> = { subject: input.subject, html: input.html ?? null, text: input.text ?? null };
  const output: Record<RenderField, string | null> = { subject: '', html: null, text: null };
  for (const field of FIELD_ORDER) {
    const source = sources[field];
    if (source !== null) output[field] = renderField(source, field, rendering);
  }
  for (const name of Object.keys(values)) {
    if (rendering.used.has(name) || rendering.isDeclared(name) || RESERVED.has(name)) continue;
    rendering.warn(name, {
      code: 'unknown_variable',
      message: `Variable "${name}" was given a value, but the template neither uses nor declares it.`,
      variable: name,
    });
  }
  return { subject: output.subject!, html: output.html, text: output.text, warnings: rendering.warnings, missing: rendering.missing };
}

/** One problem of the given variable values: `key` null when it is about the whole object. */
export interface VariableValueProblem {
  key: string | null;
  message: string;
}

/** Most problems reported for one set of values. */
const MAX_VALUE_PROBLEMS = 50;

/** Values a template can use: an object whose values are strings, numbers, booleans or null. */
export function variableValueProblems(values: unknown): VariableValueProblem[] {
  if (values === undefined) return [];
  if (typeof values !== 'object' || values === null || Array.isArray(values))
    return [{ key: null, message: 'must be an object of variable name to value' }];
  const problems: VariableValueProblem[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (problems.length >= MAX_VALUE_PROBLEMS) break;
    const ok =
      value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
    if (!ok)
      problems.push({
        key,
        message: `must be a string, number or boolean (got ${Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : typeof value})`,
      });
  }
  return problems;
}

/**
 * The problems of the given values, one line each (`variables.order: must be a string, number or
 * boolean (got an object)`); [] when they can be rendered. `path` names the object in the request.
 */
export function checkVariableValues(values: unknown, path = 'variables'): string[] {
  return variableValueProblems(values).map((problem) => `${problem.key === null ? path : `${path}.${problem.key}`}: ${problem.message}`);
}
