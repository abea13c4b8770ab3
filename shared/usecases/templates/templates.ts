/**
 * Templates (docs/templates.md): create (a draft), list, read, edit the draft, delete, publish the
 * draft, and render the draft (or the published version) with sample values without sending.
 *
 * Templates belong to the whole account: a key limited to a tenant gets 403 (spec, Authentication 3).
 * Edits and publishes are conditional on the draft revision they read (shared/adapters/store/templates.ts); a
 * write that lost a race reads again and re-applies, a few times, before answering 409.
 */
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors';
import { renderTemplate, type RenderOutput } from '../../domain/templates/render';
import type { CreateTemplateInput, RenderTemplateInput, UpdateTemplateInput } from '../../domain/templates/schemas';
import {
  contentOf,
  contentProblems,
  defaultUnsubscribe,
  isTemplateAlias,
  newTemplateId,
  sameContent,
  TEMPLATE_LIMITS,
  withChanges,
  type FieldProblem,
  type Template,
} from '../../domain/templates/template';
import { fieldNames } from '../../domain/request-validation';
import type { Clock } from '../../ports/clock';
import type { Page } from '../../adapters/store/cursor';
import type { PageRequest } from '../../adapters/store/paginate';
import type { TemplateRepository } from '../../adapters/store/templates';
import type { Principal } from '../access/principal';
import { requireAccountKey } from '../access/tenant-scope';

export interface TemplateDeps {
  templates: Pick<TemplateRepository, 'create' | 'get' | 'list' | 'saveDraft' | 'publish' | 'delete'>;
  clock: Clock;
}

/** Reads and conditional writes per edit or publish before a lasting race is answered with 409. */
const WRITE_ATTEMPTS = 5;

/** Templates are the account's: a key limited to a tenant may not use them (403 forbidden). */
export function requireTemplateAccess(principal: Principal): void {
  requireAccountKey(principal, 'use templates');
}

function invalid(problems: FieldProblem[]): never {
  throw new ValidationError(`Invalid request body: check ${fieldNames(problems)}.`, { details: { fields: problems } });
}

function changedConcurrently(alias: string): ConflictError {
  return new ConflictError(`Template ${alias} kept changing while this request was applied; nothing was written by it.`, 'conflict', {
    hint: 'Read the template again (GET /templates/{alias}) and retry.',
  });
}

/** The caller's template with this alias; 404 otherwise (an alias that cannot exist included). */
async function owned(deps: TemplateDeps, principal: Principal, alias: string): Promise<Template> {
  requireTemplateAccess(principal);
  const template = isTemplateAlias(alias) ? await deps.templates.get(principal.account.id, alias) : null;
  if (!template) throw new NotFoundError('Template', alias);
  return template;
}

export async function createTemplate(deps: TemplateDeps, principal: Principal, input: CreateTemplateInput): Promise<Template> {
  requireTemplateAccess(principal);
  const now = deps.clock.now();
  const category = input.category ?? 'transactional';
  const template: Template = {
    id: newTemplateId(now.getTime()),
    account_id: principal.account.id,
    alias: input.alias,
    name: input.name,
    subject: input.subject,
    html: input.html ?? null,
    text: input.text ?? null,
    from: input.from ?? null,
    reply_to: input.reply_to ?? [],
    category,
    unsubscribe_enabled: input.unsubscribe_enabled ?? defaultUnsubscribe(category),
    track_opens: input.track_opens ?? null,
    track_clicks: input.track_clicks ?? null,
    variables: input.variables ?? [],
    revision: 1,
    published: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  // The create schema already applied contentProblems to this draft (PATCH re-checks the merged one).
  const outcome = await deps.templates.create(template, TEMPLATE_LIMITS.templatesPerAccount);
  if (outcome.kind === 'alias_taken') {
    throw new ConflictError(`A template with alias ${input.alias} already exists.`, 'conflict', {
      details: { alias: input.alias },
      hint: `Change it (PATCH /templates/${input.alias}), or pick another alias.`,
    });
  }
  if (outcome.kind === 'limit_reached') {
    throw new ForbiddenError(
      `An account can have at most ${TEMPLATE_LIMITS.templatesPerAccount} templates; delete one to add another.`,
      'limit_exceeded',
      {
        details: { limit: TEMPLATE_LIMITS.templatesPerAccount, resource: 'templates' },
      },
    );
  }
  return template;
}

export async function listTemplates(deps: TemplateDeps, principal: Principal, page: PageRequest): Promise<Page<Template>> {
  requireTemplateAccess(principal);
  return deps.templates.list(principal.account.id, page);
}

export async function getTemplate(deps: TemplateDeps, principal: Principal, alias: string): Promise<Template> {
  return owned(deps, principal, alias);
}

/**
 * Edits the draft. The published version (what sends use) stays as it is until the next publish. A
 * change that leaves the draft as it was writes nothing.
 */
export async function updateTemplate(
  deps: TemplateDeps,
  principal: Principal,
  alias: string,
  input: UpdateTemplateInput,
): Promise<Template> {
  const { alias: _alias, ...changes } = input;
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const current = await owned(deps, principal, alias);
    const next = withChanges(current, changes);
    const problems = contentProblems(next);
    if (problems.length) invalid(problems);
    if (next.name === current.name && sameContent(next, current)) return current;
    const outcome = await deps.templates.saveDraft(next, current.revision, deps.clock.now().toISOString());
    if (outcome.kind === 'saved') return outcome.template;
  }
  throw changedConcurrently(alias);
}

export async function deleteTemplate(deps: TemplateDeps, principal: Principal, alias: string): Promise<void> {
  requireTemplateAccess(principal);
  if (!isTemplateAlias(alias) || !(await deps.templates.delete(principal.account.id, alias))) throw new NotFoundError('Template', alias);
}

/**
 * Copies the draft into the published version (version + 1). A draft equal to the published version
 * changes nothing: the template is returned as it is.
 */
export async function publishTemplate(deps: TemplateDeps, principal: Principal, alias: string): Promise<Template> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const current = await owned(deps, principal, alias);
    if (current.published && sameContent(current, current.published)) return current;
    const version = { ...contentOf(current), version: (current.published?.version ?? 0) + 1, published_at: deps.clock.now().toISOString() };
    const outcome = await deps.templates.publish(current, version);
    if (outcome.kind === 'saved') return outcome.template;
  }
  throw changedConcurrently(alias);
}

export type TemplatePreview = Omit<RenderOutput, 'missing'>;

/**
 * Renders the draft (or, with `version: 'published'`, the published version) with the given values,
 * as a send would, without sending. Problems are warnings, never errors: `{{unsubscribe_url}}` stays.
 */
export async function renderTemplatePreview(
  deps: TemplateDeps,
  principal: Principal,
  alias: string,
  input: RenderTemplateInput,
  version: 'draft' | 'published' = 'draft',
): Promise<TemplatePreview> {
  const template = await owned(deps, principal, alias);
  const content = version === 'draft' ? template : template.published;
  if (!content) {
    throw new ConflictError(`Template ${alias} has no published version yet.`, 'conflict', {
      details: { status: 'draft' },
      hint: `Render the draft (leave out version), or publish it first (POST /templates/${alias}/publish).`,
    });
  }
  const { missing: _missing, ...preview } = renderTemplate(content, content.variables, input.variables ?? {});
  return preview;
}
