/**
 * Error answers several operations give alike, as components.responses (named after status and codes:
 * ./error-answers.ts `x-shared-name`); an answer only one operation gives stays in place.
 */
import type { JsonSchema, OpenApiDocument } from './document-types';

/** Error answers several operations share, as components.responses (named after status and codes). */
class SharedResponses {
  readonly components: Record<string, JsonSchema> = {};
  private readonly byJson = new Map<string, string>();
  private readonly uses = new Map<string, number>();

  /** Called once per operation answer first (to count), then `use` gives the answer or a $ref. */
  count(answer: JsonSchema): void {
    const json = JSON.stringify(answer);
    this.uses.set(json, (this.uses.get(json) ?? 0) + 1);
  }

  use(answer: JsonSchema, name: string): JsonSchema {
    const json = JSON.stringify(answer);
    if ((this.uses.get(json) ?? 0) < 2) return answer;
    let known = this.byJson.get(json);
    if (!known) {
      known = name;
      for (let n = 2; this.components[known]; n++) known = `${name}${n}`;
      this.byJson.set(json, known);
      this.components[known] = answer;
    }
    return { $ref: `#/components/responses/${known}` };
  }
}

const withoutName = ({ 'x-shared-name': _name, ...answer }: JsonSchema) => answer;

/** Replaces, in `paths`, each named error answer given more than once by a $ref; returns the components, sorted by name. */
export function shareErrorAnswers(paths: OpenApiDocument['paths']): Record<string, JsonSchema> {
  const shared = new SharedResponses();
  const all = Object.values(paths).flatMap((item) => Object.values(item));
  for (const operation of all)
    for (const answer of Object.values(operation.responses)) if (answer['x-shared-name']) shared.count(withoutName(answer));
  for (const operation of all) {
    for (const [status, answer] of Object.entries(operation.responses)) {
      if (answer['x-shared-name']) operation.responses[status] = shared.use(withoutName(answer), answer['x-shared-name'] as string);
    }
  }
  return Object.fromEntries(Object.entries(shared.components).sort(([a], [b]) => a.localeCompare(b)));
}
