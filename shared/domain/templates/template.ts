/**
 * A template (docs/templates.md): a draft that the API edits and, once published, a published version
 * that sends use. Both live on one record; publishing copies the draft into the published version
 * (its number + 1), and editing afterwards leaves the published version as it was until the next
 * publish. The alias is the template's name in the API and in sends; unique per account. Pure.
 */
import { newId } from '../ids';
import type { Category } from '../mail/category';
import type { TemplateVariable } from './render';

export type { TemplateVariable } from './render';

export type TemplateCategory = Category;

/** A declared variable as stored: `fallback_value` always present (null: none). */
export interface StoredTemplateVariable extends TemplateVariable {
  fallback_value: string | number | null;
}

/** What one version of a template is made of (the draft, or the published version). */
export interface TemplateContent {
  subject: string;
  html: string | null;
  text: string | null;
  /** The default sender (`Name <a@b>`, `a@b`, or a bare local part for a tenant's default_from_domain); null: the send gives it. */
  from: string | null;
  reply_to: string[];
  category: TemplateCategory;
  unsubscribe_enabled: boolean;
  /**
   * Open and click tracking of its sends (docs/tracking.md, "Per message"); null: the sending domain's setting
   * (absent on templates stored before templates carried them: the same).
   */
  track_opens?: boolean | null;
  track_clicks?: boolean | null;
  variables: StoredTemplateVariable[];
}

export interface PublishedVersion extends TemplateContent {
  /** 1 for the first publish, + 1 for each publish that changed something. */
  version: number;
  published_at: string;
}

export interface Template extends TemplateContent {
  /** `tpl_<ulid>`: a new one for a template created again under a deleted one's alias. */
  id: string;
  account_id: string;
  alias: string;
  name: string;
  /** The draft's revision, + 1 on each change: publishing and editing are conditional on the one they read. */
  revision: number;
  published: PublishedVersion | null;
  created_at: string;
  updated_at: string;
}

/** What the send path renders: the published version of a template. */
export interface PublishedTemplate {
  id: string;
  alias: string;
  version: number;
  subject: string;
  html: string | null;
  text: string | null;
  from: string | null;
  reply_to: string[];
  category: 'transactional' | 'product' | 'newsletter';
  unsubscribe_enabled: boolean;
  track_opens?: boolean | null;
  track_clicks?: boolean | null;
  variables: TemplateVariable[];
}

/** `[a-z0-9][a-z0-9_-]*`, 1-64 characters (the send request's `template.id` takes the same). */
export const TEMPLATE_ALIAS = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Template limits (docs/templates.md, "Limits"). Both versions of a template at these limits fit in one 400 KB item. */
export const TEMPLATE_LIMITS = {
  templatesPerAccount: 1000,
  nameChars: 200,
  subjectChars: 998,
  htmlBytes: 100 * 1024,
  textBytes: 50 * 1024,
  addressChars: 320,
  replyTo: 10,
  variables: 50,
  variableKeyChars: 64,
  fallbackChars: 200,
} as const;

export function isTemplateAlias(value: string): boolean {
  return TEMPLATE_ALIAS.test(value);
}

export function newTemplateId(now: number): string {
  return newId('tpl', now);
}

/** Product and newsletter templates have managed unsubscribe on (spec rule 10); transactional ones off unless asked. */
export function defaultUnsubscribe(category: TemplateCategory): boolean {
  return category !== 'transactional';
}

/** Only the content fields of a template or version. */
export function contentOf(source: TemplateContent): TemplateContent {
  return {
    subject: source.subject,
    html: source.html,
    text: source.text,
    from: source.from,
    reply_to: source.reply_to,
    category: source.category,
    unsubscribe_enabled: source.unsubscribe_enabled,
    // Absent on a template stored before templates carried them: the domain decides.
    track_opens: source.track_opens ?? null,
    track_clicks: source.track_clicks ?? null,
    variables: source.variables,
  };
}

function sameVariables(a: readonly StoredTemplateVariable[], b: readonly StoredTemplateVariable[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (variable, i) =>
        variable.key === b[i]!.key && variable.type === b[i]!.type && (variable.fallback_value ?? null) === (b[i]!.fallback_value ?? null),
    )
  );
}

export function sameContent(a: TemplateContent, b: TemplateContent): boolean {
  return (
    a.subject === b.subject &&
    a.html === b.html &&
    a.text === b.text &&
    a.from === b.from &&
    a.category === b.category &&
    a.unsubscribe_enabled === b.unsubscribe_enabled &&
    (a.track_opens ?? null) === (b.track_opens ?? null) &&
    (a.track_clicks ?? null) === (b.track_clicks ?? null) &&
    a.reply_to.length === b.reply_to.length &&
    a.reply_to.every((address, i) => address === b.reply_to[i]) &&
    sameVariables(a.variables, b.variables)
  );
}

/** True when the draft differs from what sends use (always, before the first publish). */
export function hasUnpublishedChanges(template: Template): boolean {
  return template.published === null || !sameContent(template, template.published);
}

export function publishedTemplateOf(template: Pick<Template, 'id' | 'alias'>, published: PublishedVersion): PublishedTemplate {
  return { id: template.id, alias: template.alias, version: published.version, ...contentOf(published) };
}

/** The draft changes of a PATCH (the zod schema's output); null clears html, text or from. */
export interface TemplateChanges {
  name?: string;
  subject?: string;
  html?: string | null;
  text?: string | null;
  from?: string | null;
  reply_to?: string[];
  category?: TemplateCategory;
  unsubscribe_enabled?: boolean;
  /** null: back to the sending domain's setting. */
  track_opens?: boolean | null;
  track_clicks?: boolean | null;
  variables?: StoredTemplateVariable[];
}

export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * The draft after a PATCH (revision and updated_at left to the caller). A new category without an
 * explicit unsubscribe_enabled takes that category's default.
 */
export function withChanges(template: Template, changes: TemplateChanges): Template {
  const category = changes.category ?? template.category;
  const unsubscribe =
    changes.unsubscribe_enabled ??
    (changes.category !== undefined && changes.category !== template.category
      ? defaultUnsubscribe(category)
      : template.unsubscribe_enabled);
  return {
    ...template,
    name: changes.name ?? template.name,
    subject: changes.subject ?? template.subject,
    html: changes.html === undefined ? template.html : changes.html,
    text: changes.text === undefined ? template.text : changes.text,
    from: changes.from === undefined ? template.from : changes.from,
    reply_to: changes.reply_to ?? template.reply_to,
    category,
    unsubscribe_enabled: unsubscribe,
    track_opens: changes.track_opens === undefined ? (template.track_opens ?? null) : changes.track_opens,
    track_clicks: changes.track_clicks === undefined ? (template.track_clicks ?? null) : changes.track_clicks,
    variables: changes.variables ?? template.variables,
  };
}

/** What a draft must be as a whole (the schema checks each field): a body, and spec rule 10. */
export function contentProblems(content: Pick<TemplateContent, 'html' | 'text' | 'category' | 'unsubscribe_enabled'>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (content.html === null && content.text === null) problems.push({ field: 'html', message: 'one of html or text is required' });
  if (!content.unsubscribe_enabled && content.category !== 'transactional') {
    problems.push({
      field: 'unsubscribe_enabled',
      message: `${content.category} templates always have managed unsubscribe (unsubscribe_enabled cannot be false); use category transactional to turn it off`,
    });
  }
  return problems;
}

/** The API's view of a template: the draft's fields and what is published. */
export function toPublicTemplate(template: Template) {
  return {
    object: 'template' as const,
    id: template.id,
    alias: template.alias,
    name: template.name,
    subject: template.subject,
    html: template.html,
    text: template.text,
    from: template.from,
    reply_to: template.reply_to,
    category: template.category,
    unsubscribe_enabled: template.unsubscribe_enabled,
    track_opens: template.track_opens ?? null,
    track_clicks: template.track_clicks ?? null,
    variables: template.variables.map((variable) => ({
      key: variable.key,
      type: variable.type,
      fallback_value: variable.fallback_value ?? null,
    })),
    status: template.published === null ? ('draft' as const) : ('published' as const),
    published_at: template.published?.published_at ?? null,
    has_unpublished_changes: hasUnpublishedChanges(template),
    published_version: template.published?.version ?? null,
    created_at: template.created_at,
    updated_at: template.updated_at,
  };
}

/** The same without html and text (listings). */
export function toPublicTemplateSummary(template: Template) {
  const { html: _html, text: _text, ...summary } = toPublicTemplate(template);
  return summary;
}
