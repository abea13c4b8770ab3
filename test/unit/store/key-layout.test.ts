/**
 * The key layout's declarations (shared/adapters/store/layout/) and the key builders agree: each entity's
 * keys, built as the store builds them from the sample values, match its declared templates (PK, SK, each
 * index entry), every form of each template is built, and every builder of `keys` is used by some entity.
 * A builder changed without its declaration (or the reverse) fails here, naming the entity and the key.
 */
import { keys } from '#shared/adapters/store/keys';
import { DATA_LAYOUT } from '#shared/adapters/store/layout/data-layout';
import type { BuiltKeys, EntityLayout, KeyTemplate } from '#shared/adapters/store/layout/entity-layout';
import { SAMPLES } from '#shared/adapters/store/layout/samples';

const ENTITIES = DATA_LAYOUT.flatMap((area) => area.entities);
const samples: Readonly<Record<string, string | RegExp>> = SAMPLES;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const formsOf = (template: KeyTemplate): string[] => (typeof template === 'string' ? [template] : [...template]);

/** A template's text split into literal text and `<placeholder>` names (placeholders may hold `<...>` themselves). */
function partsOf(template: string): { text?: string; placeholder?: string }[] {
  const parts: { text?: string; placeholder?: string }[] = [];
  let i = 0;
  while (i < template.length) {
    if (template[i] !== '<') {
      const next = template.indexOf('<', i);
      const end = next < 0 ? template.length : next;
      parts.push({ text: template.slice(i, end) });
      i = end;
      continue;
    }
    let depth = 0;
    let j = i;
    for (; j < template.length; j++) {
      if (template[j] === '<') depth++;
      else if (template[j] === '>' && --depth === 0) break;
    }
    if (j >= template.length) throw new Error(`unclosed placeholder in ${template}`);
    parts.push({ placeholder: template.slice(i + 1, j) });
    i = j + 1;
  }
  return parts;
}

function sampleOf(name: string, template: string): string | RegExp {
  const sample = samples[name];
  if (sample === undefined) throw new Error(`no sample for <${name}> (in ${template}): add it to shared/adapters/store/layout/samples.ts`);
  return sample;
}

/** The template as a pattern: its text, each placeholder its sample's value (a RegExp sample: its shape). */
function patternOf(template: string): RegExp {
  const source = partsOf(template)
    .map((part) => {
      if (part.text !== undefined) return escaped(part.text);
      const sample = sampleOf(part.placeholder!, template);
      return typeof sample === 'string' ? escaped(sample) : `(?:${sample.source})`;
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/** The template filled with the samples, or null when one is a RegExp (a computed value). */
function filled(template: string): string | null {
  const values = partsOf(template).map((part) => (part.text !== undefined ? part.text : sampleOf(part.placeholder!, template)));
  return values.every((value) => typeof value === 'string') ? values.join('') : null;
}

/** Each declared form of each key of the entity, by the attribute it is written to: `PK EMAIL#<msg>`, `GSI4PK#0 ACCOUNT#...`. */
function declaredForms(entity: EntityLayout): Map<string, { attribute: string; form: string }[]> {
  const forms = new Map<string, { attribute: string; form: string }[]>();
  const add = (attribute: string, label: string, template: KeyTemplate) => {
    forms.set(attribute, [...(forms.get(attribute) ?? []), ...formsOf(template).map((form) => ({ attribute: label, form }))]);
  };
  add('PK', 'PK', entity.pk);
  add('SK', 'SK', entity.sk);
  (entity.indexes ?? []).forEach((entry, i) => {
    add(`${entry.index}PK`, `${entry.index}PK#${i}`, entry.pk);
    add(`${entry.index}SK`, `${entry.index}SK#${i}`, entry.sk);
  });
  return forms;
}

/** What is wrong with one built value: nothing (and the forms it matched), or why it matches no declared form. */
function check(entity: EntityLayout, attribute: keyof BuiltKeys, value: string): { matched: string[]; problem?: string } {
  if (attribute === 'SKPrefix') {
    const ok = formsOf(entity.sk).some((form) => filled(form)?.startsWith(value));
    return { matched: [], ...(ok ? {} : { problem: `SKPrefix ${value} begins no declared SK (${formsOf(entity.sk).join(' or ')})` }) };
  }
  const candidates = declaredForms(entity).get(attribute) ?? [];
  const matched = candidates.filter(({ form }) => patternOf(form).test(value)).map(({ attribute, form }) => `${attribute} ${form}`);
  const declared = candidates.map(({ form }) => form).join(' or ') || 'none declared';
  return { matched, ...(matched.length ? {} : { problem: `${attribute} ${value} matches no declared form (${declared})` }) };
}

/** The builders each entity calls, recorded through a proxy of `keys`. */
const used = new Set<string>();
const recordingKeys = new Proxy(keys, {
  get(target, name, receiver) {
    used.add(String(name));
    return Reflect.get(target, name, receiver);
  },
});

test('the layout declares entities, each named once', () => {
  expect(ENTITIES.length).toBeGreaterThan(50);
  const names = ENTITIES.map((entity) => entity.item);
  expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
});

test.each(ENTITIES.map((entity) => [entity.item, entity] as const))(
  '%s: the keys the store builds match its declared templates, and every form of them is built',
  (_, entity) => {
    const unbuilt = new Set([...declaredForms(entity).values()].flat().map(({ attribute, form }) => `${attribute} ${form}`));
    const problems: string[] = [];
    const built = entity.built(recordingKeys, SAMPLES);
    expect(built.length).toBeGreaterThan(0);
    for (const keysBuilt of built) {
      for (const [attribute, value] of Object.entries(keysBuilt) as [keyof BuiltKeys, string][]) {
        const { matched, problem } = check(entity, attribute, value);
        if (problem) problems.push(problem);
        for (const form of matched) unbuilt.delete(form);
      }
    }
    expect({ problems, unbuilt: [...unbuilt] }).toEqual({ problems: [], unbuilt: [] });
  },
);

test('every key builder of keys.ts is checked against a declaration', () => {
  for (const entity of ENTITIES) entity.built(recordingKeys, SAMPLES);
  expect(Object.keys(keys).filter((name) => !used.has(name))).toEqual([]);
});

test('the check reads templates as the declarations write them, and catches a builder that disagrees', () => {
  expect(patternOf('MTASTS#<inbound.<domain>>').test('MTASTS#inbound.example.com')).toBe(true);
  expect(patternOf('DUE#<shard>').test('DUE#17')).toBe(true);
  expect(patternOf('DUE#<shard>').test('DUE#x')).toBe(false);
  expect(() => patternOf('X#<nothing like it>')).toThrow('no sample for <nothing like it>');
  const entity: EntityLayout = {
    item: 'probe',
    description: '',
    pk: 'EMAIL#<msg>',
    sk: ['ACCOUNT', 'TENANT#<t>'],
    built: () => [],
  };
  expect(check(entity, 'PK', `EMAILS#${SAMPLES.msg}`).problem).toMatch(/matches no declared form \(EMAIL#<msg>\)/);
  expect(check(entity, 'SK', `TENANT#${SAMPLES.t}`).matched).toEqual(['SK TENANT#<t>']);
  expect(check(entity, 'SKPrefix', 'TENANT#').problem).toBeUndefined();
  expect(check(entity, 'GSI1PK', 'x').problem).toMatch(/none declared/);
});
