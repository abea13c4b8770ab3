/**
 * The bounds of what a request may put into a DynamoDB key or item (shared/domain/bounds.ts), and the
 * request schemas that use them: each refusal is a validation problem naming the field, never a throw.
 */
import {
  boundedRef,
  DYNAMODB_MAX_DEPTH,
  FREE_FORM_MAX_DEPTH,
  freeFormObject,
  freeFormProblem,
  idField,
  isStorableNumber,
} from '#shared/domain/bounds';
import { validateDefinition } from '#shared/domain/automations/validate-definition';
import { createTemplateSchema } from '#shared/domain/templates/schemas';
import { newId } from '#shared/domain/ids';
import { issuesToFields } from '#shared/domain/request-validation';
import { createTenantSchema, updateTenantSchema } from '#shared/domain/tenants/schemas';
import { eventRequestSchema, MAX_EVENT_DATA_DEPTH } from '#shared/domain/automations/event-request';
import { sendRequestSchema } from '#shared/domain/emails/send-request';
import { renderTemplateSchema } from '#shared/domain/templates/schemas';
import { testEventSchema } from '#shared/usecases/webhooks/test-event';
import { METADATA_MAX_BYTES } from '#shared/domain/tenants/tenant';
import type * as z from 'zod';

/** An object `levels` deep: {a: {a: ... {a: 1}}}. */
function nested(levels: number): Record<string, unknown> {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value as Record<string, unknown>;
}

/** Nested deeper than the call stack allows recursion over (JSON.stringify throws on it). */
const tooDeepToRecurse = () => JSON.parse(`{"a":${'['.repeat(200_000)}${']'.repeat(200_000)}}`) as Record<string, unknown>;

function fieldsOf(schema: z.ZodType, input: unknown): { field: string; message: string }[] {
  const result = schema.safeParse(input);
  return result.success ? [] : issuesToFields(result.error.issues);
}

describe('freeFormProblem', () => {
  it('counts levels of objects and arrays: the value itself is 1', () => {
    expect(freeFormProblem({ a: [1] }, 2)).toBeNull();
    expect(freeFormProblem({ a: [{}] }, 2)).toBe('is nested more than 2 levels deep');
    expect(freeFormProblem({ a: 1, b: { c: [{ d: 1 }] }, e: [] }, 4)).toBeNull();
    expect(freeFormProblem({ a: 1, b: { c: [{ d: {} }] }, e: [] }, 4)).toBe('is nested more than 4 levels deep');
    expect(freeFormProblem(nested(31), 31)).toBeNull();
  });

  it('walks values deeper than the stack without overflowing it', () => {
    const deep = tooDeepToRecurse();
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(freeFormProblem(deep, 16)).toBe('is nested more than 16 levels deep');
  });

  it('refuses keys and numbers the table cannot store, at any level', () => {
    for (const key of ['', 'constructor', '__proto__']) {
      expect(freeFormProblem(JSON.parse(`{"a":[{${JSON.stringify(key)}:1}]}`), 16)).toBe(
        `has the key ${JSON.stringify(key)}: keys must not be empty, "constructor" or "__proto__"`,
      );
    }
    for (const number of [1e300, -(2 ** 53), 5e-324, -1e-131])
      expect(freeFormProblem({ a: { b: number } }, 16)).toMatch(
        /^holds the number .*: numbers are 0 or from 1e-130 to 9007199254740991 in size$/,
      );
    expect(freeFormProblem({ prototype: 1, toString: 2, a: [0, -0, 1e-130, 2 ** 53 - 1, -1.5] }, 16)).toBeNull();
    // An object only read (template variables) may hold them.
    expect(freeFormProblem({ constructor: 1e300 }, 16, false)).toBeNull();
  });

  it("isStorableNumber: the document client's safe integers and DynamoDB's smallest magnitude", () => {
    expect([0, -0, 1, -1, 0.5, 1e-130, -(2 ** 53 - 1), 2 ** 53 - 1].every(isStorableNumber)).toBe(true);
    expect([2 ** 53, -(2 ** 53), 1e-131, Number.MIN_VALUE, Infinity, NaN].some(isStorableNumber)).toBe(false);
  });
});

describe('freeFormObject', () => {
  const schema = freeFormObject('metadata', { maxBytes: 100 });

  it(`takes objects up to ${FREE_FORM_MAX_DEPTH} levels and maxBytes as JSON`, () => {
    expect(schema.safeParse(nested(FREE_FORM_MAX_DEPTH)).success).toBe(true);
    expect(schema.safeParse({ k: 'x'.repeat(100 - '{"k":""}'.length) }).success).toBe(true);
  });

  it('refuses one level more, naming the field', () => {
    expect(fieldsOf(schema, nested(FREE_FORM_MAX_DEPTH + 1))).toEqual([
      { field: '(body)', message: `metadata is nested more than ${FREE_FORM_MAX_DEPTH} levels deep` },
    ]);
  });

  it('refuses one byte more', () => {
    expect(fieldsOf(schema, { k: 'x'.repeat(101 - '{"k":""}'.length) })).toEqual([
      { field: '(body)', message: 'metadata is 101 bytes as JSON; at most 100 (100 bytes)' },
    ]);
    // Bytes, not characters: é is two.
    expect(fieldsOf(schema, { k: 'é'.repeat(50) })[0]?.message).toMatch(/^metadata is 108 bytes/);
  });

  it('refuses what the table cannot store, naming the field', () => {
    expect(fieldsOf(schema, { a: { constructor: 1 } })).toEqual([
      { field: '(body)', message: 'metadata has the key "constructor": keys must not be empty, "constructor" or "__proto__"' },
    ]);
    expect(fieldsOf(schema, { a: 1e300 })).toEqual([
      { field: '(body)', message: 'metadata holds the number 1e+300: numbers are 0 or from 1e-130 to 9007199254740991 in size' },
    ]);
  });

  it('refuses a value deeper than the call stack as too deep (no RangeError)', () => {
    expect(fieldsOf(schema, tooDeepToRecurse())).toEqual([
      { field: '(body)', message: `metadata is nested more than ${FREE_FORM_MAX_DEPTH} levels deep` },
    ]);
  });

  it('refuses what is not an object', () => {
    for (const value of ['x', 1, [1], null])
      expect(fieldsOf(schema, value)).toEqual([{ field: '(body)', message: 'metadata must be a JSON object' }]);
  });

  it("keeps free-form objects under DynamoDB's nesting limit with room for the item around them", () => {
    expect(FREE_FORM_MAX_DEPTH).toBeLessThanOrEqual(DYNAMODB_MAX_DEPTH / 2);
  });
});

describe('idField and boundedRef', () => {
  const emailId = idField('msg', 'email_id', 'an email');

  it('takes an id of its prefix only', () => {
    const id = newId('msg');
    expect(emailId.parse(id)).toBe(id);
    for (const value of ['x'.repeat(200_000), newId('tpl'), `${id}x`, id.toLowerCase(), '', 7]) {
      expect(fieldsOf(emailId, value)).toEqual([{ field: '(body)', message: 'email_id must be an email id (msg_ and 26 characters)' }]);
    }
  });

  it('bounds a reference by name to its length, trimmed', () => {
    const ref = boundedRef('tenant', 128, 'the tenant external_id or id');
    expect(ref.parse(' acme ')).toBe('acme');
    expect(ref.parse('é'.repeat(128))).toHaveLength(128);
    expect(fieldsOf(ref, 'a'.repeat(129))).toEqual([
      { field: '(body)', message: 'tenant is at most 128 characters (the tenant external_id or id)' },
    ]);
    expect(fieldsOf(ref, '  ')).toEqual([{ field: '(body)', message: 'tenant must not be empty (the tenant external_id or id)' }]);
    for (const value of ['\u0000', 'a\u0001b', 'a\u007f'])
      expect(fieldsOf(ref, value)).toEqual([
        { field: '(body)', message: 'tenant must not contain control characters (the tenant external_id or id)' },
      ]);
  });
});

describe('request schemas: bounds name the field', () => {
  it('POST /emails/test: an email_id of 200,000 characters', () => {
    expect(fieldsOf(testEventSchema, { event: 'email.delivered', email_id: 'x'.repeat(200_000) }).map((f) => f.field)).toEqual([
      'email_id',
    ]);
    expect(testEventSchema.safeParse({ event: 'email.delivered', email_id: newId('msg') }).success).toBe(true);
  });

  it('tenants: metadata nested 200 levels, on create and update; 16 levels is accepted', () => {
    for (const schema of [createTenantSchema, updateTenantSchema]) {
      const base = schema === createTenantSchema ? { external_id: 'acme' } : {};
      expect(fieldsOf(schema, { ...base, metadata: nested(200) })).toEqual([
        { field: 'metadata', message: `metadata is nested more than ${FREE_FORM_MAX_DEPTH} levels deep` },
      ]);
      expect(fieldsOf(schema, { ...base, metadata: tooDeepToRecurse() }).map((f) => f.field)).toEqual(['metadata']);
      expect(fieldsOf(schema, { ...base, metadata: { k: 'x'.repeat(METADATA_MAX_BYTES) } })[0]?.field).toBe('metadata');
      expect(schema.safeParse({ ...base, metadata: nested(FREE_FORM_MAX_DEPTH) }).success).toBe(true);
      expect(schema.safeParse({ ...base, metadata: null }).success).toBe(true);
    }
  });

  it('POST /events: data nested past its depth, or deeper than the stack', () => {
    expect(fieldsOf(eventRequestSchema, { name: 'x', data: nested(MAX_EVENT_DATA_DEPTH + 1) })).toEqual([
      { field: 'data', message: `data is nested more than ${MAX_EVENT_DATA_DEPTH} levels deep` },
    ]);
    expect(fieldsOf(eventRequestSchema, { name: 'x', data: tooDeepToRecurse() }).map((f) => f.field)).toEqual(['data']);
    expect(fieldsOf(eventRequestSchema, { name: 'x', dry_run: true, automation_id: 'auto_'.repeat(10_000) }).map((f) => f.field)).toEqual([
      'automation_id',
    ]);
  });

  it('template variables (send and render): deeper than the stack is a 400 at variables', () => {
    const send = { from: 'a@example.com', to: 'b@example.com', template: { id: 'welcome', variables: tooDeepToRecurse() } };
    expect(fieldsOf(sendRequestSchema, send).map((f) => f.field)).toEqual(['template.variables']);
    expect(fieldsOf(renderTemplateSchema, { variables: tooDeepToRecurse() }).map((f) => f.field)).toContain('variables');
    expect(
      fieldsOf(sendRequestSchema, { ...send, template: { id: 'welcome', variables: { k: 'x'.repeat(1024 * 1024) } } }).map((f) => f.field),
    ).toEqual(['template.variables']);
  });

  it('numbers stored by templates and automations are storable', () => {
    const template = {
      name: 'n',
      alias: 'a',
      subject: 's',
      html: '<p>{{n}}</p>',
      variables: [{ key: 'n', type: 'number', fallback_value: 1e300 }],
    };
    expect(fieldsOf(createTemplateSchema, template).map((f) => f.field)).toEqual(['variables.0.fallback_value']);
    expect(createTemplateSchema.safeParse({ ...template, variables: [{ key: 'n', type: 'number', fallback_value: 12.5 }] }).success).toBe(
      true,
    );
    const trigger = { event: 'signed_up' };
    const condition = (value: unknown) =>
      validateDefinition({ trigger, steps: [{ key: 'c', type: 'condition', field: 'event.data.n', operator: 'gt', value }] });
    expect(condition(2 ** 60)).toMatchObject({ ok: false, problems: [{ field: 'steps.0.value' }] });
    expect(condition(5)).toMatchObject({ ok: true });
    const send = (variables: unknown) =>
      validateDefinition({ trigger, steps: [{ key: 's', type: 'send_email', template: { id: 'welcome', variables } }] });
    expect(send({ n: 1e-200 })).toMatchObject({ ok: false, problems: [{ field: 'steps.0.template.variables.n' }] });
    expect(send({ n: 1 })).toMatchObject({ ok: true });
  });

  it("a send's headers: at most 50, names the email item can hold", () => {
    const send = (headers: Record<string, string>) =>
      fieldsOf(sendRequestSchema, { from: 'a@example.com', to: 'b@example.com', subject: 's', text: 't', headers });
    expect(send(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-H${i}`, 'v'])))).toEqual([
      { field: 'headers', message: 'at most 50 headers' },
    ]);
    expect(send(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`X-H${i}`, 'v'])))).toEqual([]);
    expect(send({ constructor: 'x' }).map((f) => f.field)).toEqual(['headers.constructor']);
    expect(send({ ['X'.repeat(127)]: 'x' })[0]?.message).toMatch(/1-126 printable ASCII/);
  });

  it('an automation step type of "constructor" or nested past the stack is a problem at type, not a throw', () => {
    const deepType = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    for (const type of ['constructor', '__proto__', 'toString', deepType]) {
      expect(validateDefinition({ trigger: { event: 'signed_up' }, steps: [{ key: 's', type }] })).toMatchObject({
        ok: false,
        problems: [{ field: 'steps.0.type' }],
      });
    }
  });

  it('tenant references in bodies are bounded', () => {
    expect(
      fieldsOf(sendRequestSchema, { from: 'a@example.com', to: 'b@example.com', subject: 's', text: 't', tenant: 't'.repeat(129) }).map(
        (f) => f.field,
      ),
    ).toEqual(['tenant']);
    expect(fieldsOf(testEventSchema, { event: 'email.delivered', tenant: 't'.repeat(129) }).map((f) => f.field)).toEqual(['tenant']);
  });
});
