/** PublishedTemplates: the pointer read on every send, each immutable version read once per process. */
import type { PublishedTemplate } from '#shared/domain/templates/template';
import type { PublishedPointer } from '#shared/adapters/store/templates';
import { PublishedTemplates } from '#shared/usecases/send/published-templates';

function world() {
  const reads: string[] = [];
  let pointer: PublishedPointer = { kind: 'published', templateId: 'tpl_1', alias: 'welcome', version: 1 };
  const versions = new Map<number, PublishedTemplate>();
  const version = (n: number): PublishedTemplate => ({
    id: 'tpl_1',
    alias: 'welcome',
    version: n,
    subject: `v${n}`,
    html: null,
    text: 't',
    from: null,
    reply_to: [],
    category: 'transactional',
    unsubscribe_enabled: false,
    variables: [],
  });
  versions.set(1, version(1));
  const published = new PublishedTemplates({
    publishedPointer: async () => {
      reads.push('pointer');
      return pointer;
    },
    publishedVersion: async (_account, p) => {
      reads.push(`version ${p.version}`);
      return versions.get(p.version) ?? null;
    },
  });
  return {
    reads,
    published,
    publish: (n: number) => {
      versions.set(n, version(n));
      pointer = { kind: 'published', templateId: 'tpl_1', alias: 'welcome', version: n };
    },
    setPointer: (p: PublishedPointer) => (pointer = p),
    dropVersion: (n: number) => versions.delete(n),
  };
}

describe('PublishedTemplates', () => {
  it('reads the pointer for every send and a version once, so a publish is used by the next send', async () => {
    const w = world();
    expect(await w.published.getPublished('acc_1', 'welcome')).toMatchObject({ kind: 'found', template: { subject: 'v1' } });
    expect(await w.published.getPublished('acc_1', 'welcome')).toMatchObject({ kind: 'found', template: { subject: 'v1' } });
    expect(w.reads).toEqual(['pointer', 'version 1', 'pointer']);
    w.publish(2);
    expect(await w.published.getPublished('acc_1', 'welcome')).toMatchObject({ kind: 'found', template: { subject: 'v2', version: 2 } });
    expect(w.reads.slice(3)).toEqual(['pointer', 'version 2']);
  });

  it('answers not_found and not_published from the pointer, and does not keep a version that is gone', async () => {
    const w = world();
    w.setPointer({ kind: 'not_published' });
    expect(await w.published.getPublished('acc_1', 'welcome')).toEqual({ kind: 'not_published' });
    w.setPointer({ kind: 'not_found' });
    expect(await w.published.getPublished('acc_1', 'welcome')).toEqual({ kind: 'not_found' });
    w.setPointer({ kind: 'published', templateId: 'tpl_1', alias: 'welcome', version: 3 });
    expect(await w.published.getPublished('acc_1', 'welcome')).toEqual({ kind: 'not_found' });
    w.publish(3);
    expect(await w.published.getPublished('acc_1', 'welcome')).toMatchObject({ kind: 'found', template: { version: 3 } });
    expect(w.reads.filter((r) => r === 'version 3')).toHaveLength(2);
  });
});
