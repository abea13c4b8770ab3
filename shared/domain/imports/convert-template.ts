/**
 * Converts a provider template into one of ours (spec, "Import mapping rules" 4-5). Pure: the import use
 * case fetches the template (with its layout) and creates what this returns.
 *
 * Our renderer (shared/domain/templates/render.ts) knows one form only, the flat `{{name}}`. So:
 *
 * - Placeholders become flat `{{name}}`: `{{ name }}` -> `{{name}}`; dotted names flatten with
 *   underscores (`{{user.first_name}}` -> `{{user_first_name}}`); `{{{name}}}` and mustache's `{{& name}}`
 *   -> `{{name}}`, which our renderer HTML-escapes in html (a note says so: a value that carried HTML is
 *   now shown as text); handlebars `{{@root.x}}` and `{{this.x}}` -> `{{x}}`; go `{{.x}}`, `{{$.x}}` -> `{{x}}`.
 * - A Postmark layout is merged: its `{{{@content}}}` (spaces allowed) is replaced by the template's body,
 *   html into html and text into text. A body the template lacks stays null (no layout shell with
 *   nothing in it); a layout without the placeholder is not used (note).
 * - SendGrid legacy `<%body%>` and `<%subject%>` become `{{body}}` and `{{subject}}` (note: escaped in html).
 * - No subject: `{{subject}}` (each send gives it as a variable). A subject is made one line (each CR, LF
 *   or CRLF becomes a space) and trimmed.
 * - Conditional and loop blocks (handlebars `{{#if}}`, `{{#unless}}`, `{{#each}}`, `{{#with}}`, `{{else}}`;
 *   mustachio sections `{{#x}}..{{/x}}` and `{{^x}}`; go `{{if}}`, `{{range}}`, `{{with}}`, `{{end}}`)
 *   stay exactly as written, with everything between them (their inner placeholders are not touched:
 *   `{{this.name}}` in a loop means nothing outside it). The template is imported as a draft.
 * - An unsubscribe link, in any of the providers' forms (SendGrid `<%asm_group_unsubscribe_raw_url%>`,
 *   `<%asm_global_unsubscribe_raw_url%>`, `<%asm_preferences_raw_url%>`, `{{{unsubscribe}}}`,
 *   `{{unsubscribe}}`, `[Unsubscribe]`; Postmark `{{{ pm:unsubscribe }}}`; Mailgun `%unsubscribe_url%`,
 *   `%tag_unsubscribe_url%`, `%mailing_list_unsubscribe_url%`), becomes `{{unsubscribe_url}}`, even
 *   inside a block (a provider link left there would be dead); the template is then a product template
 *   with managed unsubscribe on, imported as a draft.
 * - Anything else between braces (other helpers, partials, comments, unknown `<%tag%>`s, a `{{` never
 *   closed) is left as written, named in a note, and the template is a draft.
 * - Otherwise the template is transactional and published (`publish: true`, status `imported`).
 *
 * Failures are returned, not thrown (status `failed`, publish false, a note saying why): a template whose
 * converted html or text is over our limits (100 KB, 50 KB: a merged layout can push it over), whose
 * subject is over 998 characters, or that has neither html nor text. The use case reports it failed,
 * creates nothing, and goes on with the next one; a throw would make every caller wrap each template.
 * Whatever is not `failed` passes createTemplateSchema as `templateCreateInput(converted)`.
 */
import type * as z from 'zod';
import type { createTemplateSchema } from '../templates/schemas';
import { TEMPLATE_ALIAS, TEMPLATE_LIMITS } from '../templates/template';
import type { SourceTemplate, TemplateSyntax } from './source';

export type ConvertedTemplateStatus = 'imported' | 'needs_attention' | 'failed';

export interface ConvertedTemplate {
  source_id: string;
  alias: string;
  name: string;
  subject: string;
  html: string | null;
  text: string | null;
  /** The flat placeholders found outside blocks, first use first (subject, html, text), unsubscribe_url excluded; at most 50. */
  variables: { key: string; type: 'string' }[];
  category: 'transactional' | 'product';
  unsubscribe_enabled: boolean;
  /** Publish after creating: only a template that needed no change by hand. */
  publish: boolean;
  status: ConvertedTemplateStatus;
  /** For people, in a fixed order: what was changed, and what needs a look. */
  notes: string[];
}

/** What POST /templates takes (the import creates through the same schema). */
export type TemplateCreateInput = z.input<typeof createTemplateSchema>;

/** The one placeholder we put for every provider's unsubscribe link. */
const UNSUBSCRIBE_PLACEHOLDER = '{{unsubscribe_url}}';

/** Names that, as a placeholder, are an unsubscribe link (SendGrid `{{{unsubscribe}}}`, ours). */
const UNSUBSCRIBE_NAMES: ReadonlySet<string> = new Set(['unsubscribe', 'unsubscribe_url']);
const POSTMARK_UNSUBSCRIBE = /^pm:\s*unsubscribe$/i;

/** Postmark's layout content placeholder (its CLI allows a character either side of `@content`). */
const LAYOUT_CONTENT = /\{\{\{\s*@content\s*\}\}\}/;
const LAYOUT_CONTENT_ALL = new RegExp(LAYOUT_CONTENT.source, 'g');

/** SendGrid legacy substitution tags `<%name%>`. */
const LEGACY_TAG = /<%\s*([A-Za-z_][A-Za-z0-9_]*)\s*%>/g;
const LEGACY_UNSUBSCRIBE_TAGS: ReadonlySet<string> = new Set([
  'asm_group_unsubscribe_raw_url',
  'asm_global_unsubscribe_raw_url',
  'asm_preferences_raw_url',
]);
const LEGACY_VARIABLE_TAGS: ReadonlySet<string> = new Set(['body', 'subject']);
/** Mailgun's unsubscribe variables (not inside a `<%...%>`). */
const MAILGUN_UNSUBSCRIBE = /(?<!<)%(?:unsubscribe_url|tag_unsubscribe_url|mailing_list_unsubscribe_url)%(?!>)/g;
/** SendGrid subscription tracking's substitution tag. */
const SUBSCRIPTION_TRACKING_TAG = /\[unsubscribe\]/gi;

/** A dotted path of names (`user.first_name`, `items.0`). */
const PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*$/;
const GO_BLOCK_OPENERS: ReadonlySet<string> = new Set(['if', 'range', 'with', 'block', 'define']);

/** Most tokens a note lists by name. */
const MAX_LISTED = 8;

/** What one conversion collects across subject, html and text. */
class Conversion {
  readonly variables: string[] = [];
  readonly flattened = new Map<string, string>();
  readonly unescaped: string[] = [];
  readonly blocks: string[] = [];
  readonly unknown: string[] = [];
  readonly unsubscribeForms: string[] = [];
  readonly legacyTags: string[] = [];

  addOnce(list: string[], value: string): void {
    if (!list.includes(value)) list.push(value);
  }
}

type Token =
  | { kind: 'unsubscribe' }
  | { kind: 'block'; role: 'open' | 'close' | 'middle'; label: string }
  | { kind: 'variable'; name: string; unescaped: boolean }
  | { kind: 'other' };

/** A flat name for a path, or null when it is not one (or too long to declare). */
function flatName(path: string): string | null {
  if (!PATH.test(path)) return null;
  const name = path.replace(/\./g, '_');
  return name.length <= TEMPLATE_LIMITS.variableKeyChars ? name : null;
}

function variableOrUnsubscribe(path: string, unescaped: boolean): Token {
  const name = flatName(path);
  if (name === null) return { kind: 'other' };
  if (UNSUBSCRIBE_NAMES.has(name)) return { kind: 'unsubscribe' };
  return { kind: 'variable', name, unescaped };
}

/** Handlebars and mustachio (and anything between braces of a legacy template). */
function classifyCurly(inner: string, triple: boolean): Token {
  let expression = inner.trim();
  if (POSTMARK_UNSUBSCRIBE.test(expression)) return { kind: 'unsubscribe' };
  const head = expression[0];
  const word = expression.slice(1).trim().split(/\s+/)[0] ?? '';
  if (head === '#') return { kind: 'block', role: 'open', label: `#${word}` };
  if (head === '/') return { kind: 'block', role: 'close', label: `/${word}` };
  if (head === '^')
    return expression === '^' ? { kind: 'block', role: 'middle', label: '^' } : { kind: 'block', role: 'open', label: `^${word}` };
  if (/^else(\s|$)/.test(expression)) return { kind: 'block', role: 'middle', label: 'else' };
  let unescaped = triple;
  if (head === '&') {
    expression = expression.slice(1).trim();
    unescaped = true;
  }
  const path = expression.replace(/^@root\./, '').replace(/^this\./, '');
  return variableOrUnsubscribe(path, unescaped);
}

/** Go text/template (Mailgun's `go` engine). */
function classifyGo(inner: string, triple: boolean): Token {
  const expression = inner.trim().replace(/^-\s+/, '').replace(/\s+-$/, '');
  if (POSTMARK_UNSUBSCRIBE.test(expression)) return { kind: 'unsubscribe' };
  const word = expression.split(/\s+/)[0] ?? '';
  if (GO_BLOCK_OPENERS.has(word)) return { kind: 'block', role: 'open', label: word };
  if (word === 'end') return { kind: 'block', role: 'close', label: 'end' };
  if (word === 'else') return { kind: 'block', role: 'middle', label: 'else' };
  const path = expression.replace(/^\$?\./, '');
  return variableOrUnsubscribe(path, triple);
}

function classify(inner: string, triple: boolean, syntax: TemplateSyntax): Token {
  return syntax === 'go' ? classifyGo(inner, triple) : classifyCurly(inner, triple);
}

/** The provider tags that are not between braces: legacy `<%tag%>`s and the unsubscribe forms. */
function convertTags(source: string, conversion: Conversion): string {
  return source
    .replace(LEGACY_TAG, (tag: string, name: string) => {
      const key = name.toLowerCase();
      if (LEGACY_UNSUBSCRIBE_TAGS.has(key)) {
        conversion.addOnce(conversion.unsubscribeForms, tag);
        return UNSUBSCRIBE_PLACEHOLDER;
      }
      if (LEGACY_VARIABLE_TAGS.has(key)) {
        conversion.addOnce(conversion.legacyTags, `${tag} -> {{${key}}}`);
        return `{{${key}}}`;
      }
      conversion.addOnce(conversion.unknown, tag);
      return tag;
    })
    .replace(MAILGUN_UNSUBSCRIBE, (tag: string) => {
      conversion.addOnce(conversion.unsubscribeForms, tag);
      return UNSUBSCRIBE_PLACEHOLDER;
    })
    .replace(SUBSCRIPTION_TRACKING_TAG, (tag: string) => {
      conversion.addOnce(conversion.unsubscribeForms, tag);
      return UNSUBSCRIBE_PLACEHOLDER;
    });
}

/** Where the `{{...}}` or `{{{...}}}` opening at `open` closes (its inside ends at `close`); null when it never does. */
function closingOf(text: string, open: number): { close: number; triple: boolean } | null {
  if (text.startsWith('{{{', open)) {
    const close = text.indexOf('}}}', open + 3);
    if (close !== -1) return { close, triple: true };
  }
  const close = text.indexOf('}}', open + 2);
  return close === -1 ? null : { close, triple: false };
}

/** What one `{{...}}` (`token`, classified) becomes, and the block depth after it. */
function convertToken(
  token: string,
  classified: ReturnType<typeof classify>,
  depth: number,
  conversion: Conversion,
): { text: string; depth: number } {
  if (classified.kind === 'unsubscribe') {
    if (token !== UNSUBSCRIBE_PLACEHOLDER) conversion.addOnce(conversion.unsubscribeForms, shown(token));
    return { text: UNSUBSCRIBE_PLACEHOLDER, depth };
  }
  if (classified.kind === 'block') {
    if (classified.role !== 'close') conversion.addOnce(conversion.blocks, `{{${classified.label}}}`);
    const next = classified.role === 'open' ? depth + 1 : classified.role === 'close' ? Math.max(0, depth - 1) : depth;
    return { text: token, depth: next };
  }
  // Inside a block everything is kept as written.
  if (depth > 0) return { text: token, depth };
  if (classified.kind === 'other') {
    conversion.addOnce(conversion.unknown, shown(token));
    return { text: token, depth };
  }
  const placeholder = `{{${classified.name}}}`;
  const plain = token.replace(/\s+/g, '');
  if (classified.unescaped) conversion.addOnce(conversion.unescaped, `${shown(token)} -> ${placeholder}`);
  else if (plain !== placeholder) conversion.flattened.set(plain, placeholder);
  conversion.addOnce(conversion.variables, classified.name);
  return { text: placeholder, depth };
}

/** One field: every `{{...}}` / `{{{...}}}` turned into ours, or kept as written (see the header). */
function convertField(source: string, syntax: TemplateSyntax, conversion: Conversion): string {
  const text = convertTags(source, conversion);
  const parts: string[] = [];
  let depth = 0;
  let i = 0;
  for (let open = text.indexOf('{{'); open !== -1; open = text.indexOf('{{', i)) {
    parts.push(text.slice(i, open));
    const closing = closingOf(text, open);
    if (closing === null) {
      // A `{{` never closed: the rest is text, as our renderer leaves it.
      conversion.addOnce(conversion.unknown, shown(text.slice(open)));
      i = open;
      break;
    }
    const width = closing.triple ? 3 : 2;
    i = closing.close + width;
    const token = text.slice(open, i);
    const converted = convertToken(token, classify(text.slice(open + width, closing.close), closing.triple, syntax), depth, conversion);
    depth = converted.depth;
    parts.push(converted.text);
  }
  parts.push(text.slice(i));
  return parts.join('');
}

/** `{{{ @content }}}` replaced by the body; null when the layout cannot hold it (no placeholder). */
function mergeIntoLayout(layout: string | null, body: string | null): { merged: string | null; unused: boolean } {
  if (body === null || layout === null) return { merged: body, unused: false };
  if (!LAYOUT_CONTENT.test(layout)) return { merged: body, unused: true };
  // A function, so `$&` or `$1` in the body are not replacement patterns.
  return { merged: layout.replace(LAYOUT_CONTENT_ALL, () => body), unused: false };
}

/** Lower-case, `[a-z0-9_-]`, at most 64, starting with a letter or digit; '' when nothing is left. */
export function aliasSlug(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, 64)
    .replace(/[-_]+$/, '');
}

/**
 * Our alias for a provider template: the provider's alias when it is a valid alias of ours as it is,
 * else a slug of the name, else a slug of the provider's alias, else `template-<source id slug>`.
 */
export function aliasFor(source: Pick<SourceTemplate, 'alias' | 'name' | 'source_id'>): string {
  if (source.alias !== null && TEMPLATE_ALIAS.test(source.alias)) return source.alias;
  const fromName = aliasSlug(source.name ?? '');
  if (fromName !== '') return fromName;
  const fromAlias = aliasSlug(source.alias ?? '');
  if (fromAlias !== '') return fromAlias;
  const id = aliasSlug(source.source_id);
  return id === '' ? 'template' : aliasSlug(`template-${id}`);
}

/** A token as a note shows it: one line, short. */
function shown(token: string): string {
  const line = token.replace(/\s+/g, ' ');
  return line.length > 40 ? `${line.slice(0, 37)}...` : line;
}

/** Up to MAX_LISTED items (each already `shown`), then how many more. */
function listed(items: readonly string[]): string {
  const names = items.slice(0, MAX_LISTED);
  return items.length > MAX_LISTED ? `${names.join(', ')} and ${items.length - MAX_LISTED} more` : names.join(', ');
}

const byteLength = (value: string) => Buffer.byteLength(value, 'utf8');

/** The template's html and text merged into its layout, if it has one (a note says how). */
function withLayout(source: SourceTemplate, notes: string[]): { html: string | null; text: string | null } {
  const html = source.html === '' ? null : source.html;
  const text = source.text === '' ? null : source.text;
  if (!source.layout) return { html, text };
  const mergedHtml = mergeIntoLayout(source.layout.html, html);
  const mergedText = mergeIntoLayout(source.layout.text, text);
  const unused = [mergedHtml.unused ? 'html' : null, mergedText.unused ? 'text' : null].filter((field) => field !== null);
  notes.push(
    unused.length === 0
      ? `Merged layout "${source.layout.alias}" into the template (its {{{@content}}} replaced by the template's body).`
      : `Layout "${source.layout.alias}" has no {{{@content}}} placeholder in its ${unused.join(' and ')}; the template's ${unused.join(' and ')} is imported without the layout.`,
  );
  return { html: mergedHtml.merged, text: mergedText.merged };
}

/** The subject, one line and converted; `{{subject}}` when the template has none. */
function convertSubject(source: SourceTemplate, conversion: Conversion, notes: string[]): string {
  const givenSubject = (source.subject ?? '').trim();
  if (givenSubject === '') {
    conversion.addOnce(conversion.variables, 'subject');
    notes.push('The template has no subject: it is {{subject}}, so each send gives the subject as the variable "subject".');
    return '{{subject}}';
  }
  const oneLine = givenSubject.replace(/\r\n|\r|\n/g, ' ');
  if (oneLine !== givenSubject) notes.push('The subject had line breaks; each became a space (a subject is one line).');
  return convertField(oneLine, source.syntax, conversion);
}

/** The notes on what the conversion rewrote or left for the user. */
function conversionNotes(conversion: Conversion, unsubscribe: boolean): string[] {
  const notes: string[] = [];
  if (conversion.flattened.size > 0) {
    const changes = [...conversion.flattened].map(([from, to]) => `${shown(from)} -> ${to}`);
    notes.push(`Placeholders rewritten as flat names: ${listed(changes)}. Sends pass these variables by their new names.`);
  }
  if (conversion.unescaped.length > 0) {
    notes.push(
      `Unescaped placeholders became escaped ones: ${listed(conversion.unescaped)}. Their values are now HTML-escaped in html (a value that carried HTML shows as text).`,
    );
  }
  if (conversion.legacyTags.length > 0) {
    notes.push(
      `Legacy substitution tags converted: ${listed(conversion.legacyTags)}. Their values are HTML-escaped in html, so {{body}} takes text, not HTML.`,
    );
  }
  if (unsubscribe) {
    const forms = conversion.unsubscribeForms.length > 0 ? ` (${listed(conversion.unsubscribeForms)})` : '';
    notes.push(
      `The unsubscribe link${forms} became {{unsubscribe_url}}: imported as a draft in the product category with managed unsubscribe on; check it and publish.`,
    );
  }
  if (conversion.blocks.length > 0) {
    notes.push(
      `Conditional or loop blocks ${listed(conversion.blocks)} are kept as written (with the placeholders inside them) and our templates do not run them: rewrite them as flat placeholders, then publish. Imported as a draft.`,
    );
  }
  if (conversion.unknown.length > 0) {
    notes.push(`Left as written (not a flat placeholder): ${listed(conversion.unknown)}. Rewrite, then publish. Imported as a draft.`);
  }
  return notes;
}

/** The template's name (its alias when it has none), cut to our limit. */
function templateName(source: SourceTemplate, alias: string, notes: string[]): string {
  const name = (source.name ?? '').trim() || alias;
  if (name.length <= TEMPLATE_LIMITS.nameChars) return name;
  notes.push(`The name was cut to ${TEMPLATE_LIMITS.nameChars} characters.`);
  return name.slice(0, TEMPLATE_LIMITS.nameChars).trim();
}

/** Why the converted fields cannot be imported (over our limits, or no body); empty when they can. */
function sizeFailures(subject: string, html: string | null, text: string | null, withLayoutNote: string): string[] {
  const failures: string[] = [];
  if (subject.length > TEMPLATE_LIMITS.subjectChars)
    failures.push(`the subject is ${subject.length} characters; the limit is ${TEMPLATE_LIMITS.subjectChars}`);
  if (html !== null && byteLength(html) > TEMPLATE_LIMITS.htmlBytes)
    failures.push(`the html is ${byteLength(html)} bytes${withLayoutNote}; the limit is ${TEMPLATE_LIMITS.htmlBytes}`);
  if (text !== null && byteLength(text) > TEMPLATE_LIMITS.textBytes)
    failures.push(`the text is ${byteLength(text)} bytes${withLayoutNote}; the limit is ${TEMPLATE_LIMITS.textBytes}`);
  if (html === null && text === null) failures.push('it has neither html nor text');
  return failures;
}

export function convertTemplate(source: SourceTemplate): ConvertedTemplate {
  const conversion = new Conversion();
  const notes: string[] = [];
  const alias = aliasFor(source);
  const body = withLayout(source, notes);
  const subject = convertSubject(source, conversion, notes);
  const html = body.html === null ? null : convertField(body.html, source.syntax, conversion);
  const text = body.text === null ? null : convertField(body.text, source.syntax, conversion);

  const unsubscribe = conversion.unsubscribeForms.length > 0 || hasUnsubscribe(subject, html, text);
  notes.push(...conversionNotes(conversion, unsubscribe));
  const variables = conversion.variables.slice(0, TEMPLATE_LIMITS.variables);
  if (conversion.variables.length > TEMPLATE_LIMITS.variables) {
    notes.push(
      `The template uses ${conversion.variables.length} variables; the first ${TEMPLATE_LIMITS.variables} are declared (the others still render).`,
    );
  }
  const name = templateName(source, alias, notes);
  const failures = sizeFailures(subject, html, text, source.layout ? ' with its layout' : '');
  if (failures.length > 0) notes.push(`Not imported: ${failures.join('; ')}.`);

  const needsAttention = unsubscribe || conversion.blocks.length > 0 || conversion.unknown.length > 0;
  const status: ConvertedTemplateStatus = failures.length > 0 ? 'failed' : needsAttention ? 'needs_attention' : 'imported';
  return {
    source_id: source.source_id,
    alias,
    name,
    subject,
    html,
    text,
    variables: variables.map((key) => ({ key, type: 'string' as const })),
    category: unsubscribe ? 'product' : 'transactional',
    unsubscribe_enabled: unsubscribe,
    publish: status === 'imported',
    status,
    notes,
  };
}

/** `{{unsubscribe_url}}` already written as ours in the source also makes it a product template. */
function hasUnsubscribe(...fields: (string | null)[]): boolean {
  return fields.some((field) => field?.includes(UNSUBSCRIBE_PLACEHOLDER));
}

/** The POST /templates body for a converted template (not for a `failed` one). */
export function templateCreateInput(template: ConvertedTemplate): TemplateCreateInput {
  return {
    name: template.name,
    alias: template.alias,
    subject: template.subject,
    html: template.html,
    text: template.text,
    category: template.category,
    unsubscribe_enabled: template.unsubscribe_enabled,
    variables: template.variables.map((variable) => ({ key: variable.key, type: variable.type })),
  };
}
