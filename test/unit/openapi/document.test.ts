/**
 * The OpenAPI document: valid OpenAPI 3.1, docs/openapi.json is what `npm run openapi` writes, every
 * example matches its schema and passes the real validation, the aliases the domain accepts are listed,
 * and every operation documents the errors of its kind.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ATTACHMENT_UPLOAD_ALIASES, createAttachmentUploadSchema } from '#shared/domain/emails/attachment-upload';
import { ATTACHMENT_ALIASES } from '#shared/domain/emails/attachments';
import { SEND_REQUEST_ALIASES, sendRequestSchema } from '#shared/domain/emails/send-request';
import type { JsonSchema } from '#shared/doors/openapi/document';
import { OPERATIONS } from '#functions/api/operations';
import { VALIDATED_BY } from '#shared/doors/openapi/requests';
import { buildApiDocument, OPENAPI_FILE, openApiText } from '#functions/api/openapi';
import { ContractChecker } from '../../support/openapi-contract';

const document = buildApiDocument();
const checker = new ContractChecker(document);
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
);
const schemas = document.components.schemas;

test('docs/openapi.json is what the generator writes (run `npm run openapi` after changing the API)', () => {
  expect(readFileSync(OPENAPI_FILE, 'utf8') === openApiText()).toBe(true);
});

test('the document is generated the same way every time', () => {
  expect(JSON.stringify(buildApiDocument())).toBe(JSON.stringify(document));
});

test('docs/openapi.json validates as OpenAPI 3.1 (@seriousme/openapi-schema-validator)', () => {
  const script = resolve(__dirname, '../../support/validate-openapi.mjs');
  const result = JSON.parse(execFileSync(process.execPath, [script, OPENAPI_FILE], { encoding: 'utf8' })) as {
    valid: boolean;
    version: string;
    errors: unknown;
  };
  expect(result).toEqual({ valid: true, version: '3.1', errors: null });
});

test('every component schema compiles (JSON Schema 2020-12)', () => {
  for (const name of Object.keys(schemas))
    expect(() => checker.validator(`component ${name}`, { $ref: `#/components/schemas/${name}` })).not.toThrow();
});

test('every operation has an id, a summary, a tag of the document, a success answer, 500, and 401 unless public', () => {
  const ids = new Set<string>();
  const tags = new Set(document.tags.map((tag) => tag.name));
  for (const { path, method, operation } of operations) {
    const where = `${method.toUpperCase()} ${path}`;
    expect({ where, unique: !ids.has(operation.operationId) }).toEqual({ where, unique: true });
    ids.add(operation.operationId);
    expect({ where, summary: operation.summary.length > 0, tag: tags.has(operation.tags[0]!) }).toEqual({
      where,
      summary: true,
      tag: true,
    });
    const statuses = Object.keys(operation.responses).map(Number);
    expect({ where, success: statuses.some((status) => status < 400), internal: statuses.includes(500) }).toEqual({
      where,
      success: true,
      internal: true,
    });
    expect({ where, unauthorized: statuses.includes(401) }).toEqual({
      where,
      unauthorized: operation.security.length > 0 || ['signIn', 'oidcCallback'].includes(operation.operationId),
    });
  }
});

/** The schema of a media type of an answer (answers may be shared: components.responses). */
function answerSchema(answer: JsonSchema, mediaType = 'application/json'): JsonSchema | undefined {
  const ref = answer.$ref as string | undefined;
  const resolved = ref ? document.components.responses[ref.slice(ref.lastIndexOf('/') + 1)]! : answer;
  return (resolved.content as Record<string, JsonSchema> | undefined)?.[mediaType] as JsonSchema | undefined as JsonSchema | undefined;
}

test('every example matches its schema', () => {
  const problems: string[] = [];
  let count = 0;
  const check = (where: string, media: JsonSchema | undefined) => {
    if (!media || media.example === undefined) return;
    count++;
    const validate = checker.validator(`example ${where}`, media.schema as JsonSchema);
    if (!validate(media.example)) problems.push(`${where}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  };
  for (const { path, method, operation } of operations) {
    const where = `${method.toUpperCase()} ${path}`;
    check(`${where} request`, (operation.requestBody?.content as Record<string, JsonSchema> | undefined)?.['application/json']);
    for (const [status, answer] of Object.entries(operation.responses)) check(`${where} ${status}`, answerSchema(answer));
  }
  for (const [name, answer] of Object.entries(document.components.responses)) check(`response ${name}`, answerSchema(answer));
  expect(problems).toEqual([]);
  expect(count).toBeGreaterThan(60);
});

test('every request example passes the validation of its route (the zod schema, or the code a documentation schema stands for)', () => {
  const problems: string[] = [];
  for (const operation of OPERATIONS) {
    if (!operation.body || operation.body.example === undefined) continue;
    const validate = VALIDATED_BY.get(operation.body.schema) ?? ((body: unknown) => operation.body!.schema.parse(body));
    try {
      validate(operation.body.example);
    } catch (error) {
      problems.push(`${operation.operationId}: ${(error as Error).message.slice(0, 400)}`);
    }
  }
  expect(problems).toEqual([]);
});

test('request bodies list every alias the domain accepts, and each alias really is accepted', () => {
  const sendRequest = schemas.SendEmailRequest!.properties as Record<string, JsonSchema>;
  for (const [alias, canonical] of Object.entries(SEND_REQUEST_ALIASES)) {
    expect(sendRequest[alias]?.description).toContain(`Alias of \`${canonical}\``);
  }
  const attachmentAlternatives = (schemas.AttachmentInput!.anyOf as JsonSchema[]).map(
    (item) => item.properties as Record<string, JsonSchema>,
  );
  for (const [alias, canonical] of Object.entries(ATTACHMENT_ALIASES)) {
    expect(attachmentAlternatives.some((properties) => properties[canonical] && properties[alias]?.description)).toBe(true);
  }
  const upload = schemas.CreateAttachmentUploadRequest!.properties as Record<string, JsonSchema>;
  for (const alias of Object.keys(ATTACHMENT_UPLOAD_ALIASES)) expect(upload[alias]).toBeDefined();

  // Each alias means the canonical field.
  const base = { from: 'a@example.com', to: 'b@example.com', subject: 's', text: 't' };
  expect(sendRequestSchema.parse({ ...base, text: undefined, plain_body: 'hello' }).text).toBe('hello');
  expect(sendRequestSchema.parse({ ...base, replyTo: 'r@example.com' }).reply_to).toEqual(['r@example.com']);
  const attachment = sendRequestSchema.parse({
    ...base,
    attachments: [{ name: 'a.txt', contentType: 'text/plain', content: 'aGk=', contentId: 'c1' }],
  }).attachments![0]!;
  expect(attachment).toMatchObject({ filename: 'a.txt', content_type: 'text/plain', data: 'aGk=', content_id: 'c1' });
  expect(createAttachmentUploadSchema.parse({ name: 'a.pdf', contentType: 'application/pdf' })).toMatchObject({
    filename: 'a.pdf',
    content_type: 'application/pdf',
  });
});

test("error answers use the envelope: 401 only a message, the others a code from the operation's list", () => {
  for (const { path, method, operation } of operations) {
    for (const [status, answer] of Object.entries(operation.responses)) {
      if (Number(status) < 400) continue;
      const media = answerSchema(answer)!;
      const schema = media.schema as JsonSchema;
      if (status === '401') expect(schema).toEqual({ $ref: '#/components/schemas/Unauthorized' });
      else
        expect({ where: `${method} ${path} ${status}`, envelope: (schema.allOf as JsonSchema[] | undefined)?.[0] }).toEqual({
          where: `${method} ${path} ${status}`,
          envelope: { $ref: '#/components/schemas/Error' },
        });
    }
  }
});
