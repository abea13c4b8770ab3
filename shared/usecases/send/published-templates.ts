/**
 * The published templates the send path renders (docs/templates.md): per send, the template's pointer
 * (one strongly consistent read of a few bytes: a publish that answered is used by the next send), then
 * the version it names, which never changes and so is read once per process and kept (bounded). A
 * popular template therefore costs each send one small read, not a read of the whole template item.
 */
import { BoundedMap } from '../../lib/bounded-map';
import type { PublishedTemplate } from '../../domain/templates/template';
import type { GetPublishedOutcome, TemplateRepository } from '../../adapters/store/templates';

/** Versions kept per process (each at most the template size limits, ~150 KB). */
const VERSIONS = 200;

export class PublishedTemplates {
  private readonly versions = new BoundedMap<string, Promise<PublishedTemplate | null>>(VERSIONS);

  constructor(private readonly templates: Pick<TemplateRepository, 'publishedPointer' | 'publishedVersion'>) {}

  async getPublished(accountId: string, alias: string): Promise<GetPublishedOutcome> {
    const pointer = await this.templates.publishedPointer(accountId, alias);
    if (pointer.kind !== 'published') return pointer;
    const key = `${accountId}\u0000${alias}\u0000${pointer.templateId}\u0000${pointer.version}`;
    let version = this.versions.get(key);
    if (!version) {
      version = this.templates.publishedVersion(accountId, pointer);
      this.versions.set(key, version);
      // Failures and a version gone with its template are not kept.
      version.then((found) => found ?? this.versions.delete(key)).catch(() => this.versions.delete(key));
    }
    const template = await version;
    return template ? { kind: 'found', template } : { kind: 'not_found' };
  }
}
