/**
 * What a page shows as a command's answer (`# -> ...`, docs/docs-examples.md), checked against what the
 * command printed:
 *
 *   # -> 201 {"domain": {"id": "dom_...", "status": "pending", "records": [...]}}   (a note after it is ignored)
 *   # -> {"email": {"status": "delivered", ...}}
 *   # -> ... <~  250 2.0.0 Ok: queued as msg_01...
 *   # -> 404
 *
 * An optional HTTP status first (of the command's last curl; followed by the shape, `...` or nothing), then
 * a JSON shape or a line of text. In a
 * shape, every key shown must be there with a matching value (keys not shown are allowed); `...` (or `…`)
 * is any value, any other members or any other array elements; a string with `...` in it is a pattern
 * (`"msg_01..."` starts with msg_01). An array without `...` has exactly the elements shown. Text is
 * matched against a line of the output, `...` matching anything.
 */
type Shape =
  | { kind: 'any' }
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'pattern'; source: string; regex: RegExp }
  | { kind: 'object'; members: [string, Shape][] }
  | { kind: 'array'; items: Shape[]; open: boolean };

export interface ShownAnswer {
  status?: number;
  shape?: Shape;
  text?: RegExp;
  source: string;
}

const ELLIPSIS = /^(\.\.\.|…)/;

/** `...` as a wildcard; in a line of text (not anchored) the spaces around it go too (`... <~  250` matches `<~  250`). */
function globToRegex(glob: string, anchored: boolean): RegExp {
  const body = glob
    .split(anchored ? /\.\.\.|…/ : /\s*(?:\.\.\.|…)\s*/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*?');
  return new RegExp(anchored ? `^${body}$` : body, 's');
}

/** Markers a bare `...` of a shape becomes in its JSON: any value or element, or other members. */
const ANY = '\u0000any';
const REST = '\u0000rest';

/**
 * A shape's text as JSON, each bare `...` a marker (other members in an object, any value elsewhere), cut
 * where the shape ends (a note may follow it); then parsed by JSON.parse.
 */
function shapeJson(text: string): unknown {
  let json = '';
  const open: string[] = [];
  let last = '';
  for (let at = 0; at < text.length; ) {
    const rest = text.slice(at);
    const token = /^"(?:[^"\\]|\\.)*"/.exec(rest)?.[0] ?? ELLIPSIS.exec(rest)?.[0] ?? text[at]!;
    at += token.length;
    if (ELLIPSIS.test(token)) {
      json += open.at(-1) === '{' && last !== ':' ? `${JSON.stringify(REST)}: 0` : JSON.stringify(ANY);
      last = '"';
      continue;
    }
    json += token;
    if (token === '{' || token === '[') open.push(token);
    else if (token === '}' || token === ']') {
      open.pop();
      if (open.length === 0) break;
    }
    if (token.trim() !== '') last = token;
  }
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new Error(`cannot read the answer shown (${(error as Error).message}) in: ${text}`);
  }
}

function toShape(value: unknown): Shape {
  if (value === ANY) return { kind: 'any' };
  if (Array.isArray(value)) {
    const items = value.filter((item) => item !== ANY);
    return { kind: 'array', items: items.map(toShape), open: items.length < value.length };
  }
  if (typeof value === 'object' && value !== null) {
    return {
      kind: 'object',
      members: Object.entries(value)
        .filter(([key]) => key !== REST)
        .map(([key, member]) => [key, toShape(member)]),
    };
  }
  if (typeof value === 'string') {
    if (value === '...' || value === '…') return { kind: 'any' };
    if (/\.\.\.|…/.test(value)) return { kind: 'pattern', source: value, regex: globToRegex(value, true) };
  }
  return { kind: 'literal', value: value as string | number | boolean | null };
}

export function parseShownAnswer(source: string): ShownAnswer {
  const answer: ShownAnswer = { source };
  let rest = source.trim();
  // A status is followed by the shape, `...` or nothing ("250 2.0.0 Ok" is a line of text).
  const status = /^([1-5]\d\d)(?=$|\s+(?:[{[]|\.\.\.|…))/.exec(rest);
  if (status) {
    answer.status = Number(status[1]);
    rest = rest.slice(status[0].length).trim();
  }
  if (rest.startsWith('{') || rest.startsWith('[')) {
    answer.shape = toShape(shapeJson(rest));
  } else if (rest !== '') {
    answer.text = globToRegex(rest.trim(), false);
  }
  return answer;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? 'nothing' : text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/** Where `actual` differs from `shape` (a path and what was expected), or null when it matches. */
export function shapeMismatch(shape: Shape, actual: unknown, path = '$'): string | null {
  switch (shape.kind) {
    case 'any':
      return actual === undefined ? `${path}: missing` : null;
    case 'literal':
      return actual === shape.value ? null : `${path}: expected ${JSON.stringify(shape.value)}, got ${describe(actual)}`;
    case 'pattern':
      return typeof actual === 'string' && shape.regex.test(actual) ? null : `${path}: expected "${shape.source}", got ${describe(actual)}`;
    case 'object': {
      if (typeof actual !== 'object' || actual === null || Array.isArray(actual))
        return `${path}: expected an object, got ${describe(actual)}`;
      for (const [key, member] of shape.members) {
        if (!(key in actual)) return `${path}.${key}: missing`;
        const problem = shapeMismatch(member, (actual as Record<string, unknown>)[key], `${path}.${key}`);
        if (problem) return problem;
      }
      return null;
    }
    case 'array': {
      if (!Array.isArray(actual)) return `${path}: expected an array, got ${describe(actual)}`;
      if (!shape.open) {
        if (actual.length !== shape.items.length)
          return `${path}: expected ${shape.items.length} element(s), got ${actual.length}: ${describe(actual)}`;
        for (let i = 0; i < actual.length; i++) {
          const problem = shapeMismatch(shape.items[i]!, actual[i], `${path}[${i}]`);
          if (problem) return problem;
        }
        return null;
      }
      // With `...`: the elements shown, in order, among any others.
      let from = 0;
      for (const [index, item] of shape.items.entries()) {
        let found = -1;
        for (let i = from; i < actual.length && found < 0; i++) if (shapeMismatch(item, actual[i]) === null) found = i;
        if (found < 0) return `${path}: no element matches the ${index + 1}. shown (${describe(actual)})`;
        from = found + 1;
      }
      return null;
    }
  }
}

/** The JSON a command printed: its whole output if it is JSON, else each line that is, the last first. */
export function printedJson(stdout: string): unknown[] {
  const text = stdout.trim();
  if (text === '') return [];
  try {
    return [JSON.parse(text)];
  } catch {
    const values: unknown[] = [];
    for (const line of text.split('\n').reverse()) {
      try {
        values.push(JSON.parse(line));
      } catch {
        // not JSON
      }
    }
    return values;
  }
}

/** Why the output is not the answer shown, or null when it is. */
export function answerMismatch(answer: ShownAnswer, output: { stdout: string; httpStatus?: number }): string | null {
  if (answer.status !== undefined && output.httpStatus !== answer.status) {
    return `expected HTTP ${answer.status}, got ${output.httpStatus ?? 'no HTTP answer'}`;
  }
  if (answer.shape) {
    // What the command printed last, or another JSON value it printed (a script may print more than its answer).
    const printed = printedJson(output.stdout);
    if (printed.length === 0) return 'expected JSON, the command printed none';
    const problems = printed.map((value) => shapeMismatch(answer.shape!, value));
    return problems.includes(null) ? null : problems[0]!;
  }
  if (answer.text && !output.stdout.split('\n').some((line) => answer.text!.test(line.trim()))) {
    return `no line of the output matches "${answer.source}"`;
  }
  return null;
}
