/** Templates (docs/templates.md): their versions, and what sends render (the published pointer per send, each immutable version read once per process). */
import { TemplateRepository } from '../adapters/store/templates';
import { PublishedTemplates } from '../usecases/send/published-templates';
import type { Platform } from './platform';

export function buildTemplates({ table }: Pick<Platform, 'table'>) {
  const templates = new TemplateRepository(table);
  return { templates, publishedTemplates: new PublishedTemplates(templates) };
}

export type TemplateServices = ReturnType<typeof buildTemplates>;
