/**
 * Every audited create names what it created (docs/audit-log.md): the list is derived from the operations'
 * declarations (a change that answers 201, or whose operationId says it creates or starts something, and
 * that the audit log records), so a new create fails here until it declares `creates`, and the declared
 * path must hold a string id in the operation's own answer schema.
 */
import * as z from 'zod';
import { isAuditedOperation } from '#shared/domain/audit/audited-actions';
import type { Operation } from '#shared/doors/openapi/operation';
import { OPERATIONS } from '#functions/api/operations';

/** Creates with no one id to name, and why. */
const WITHOUT_ONE_ID: Readonly<Record<string, string>> = {
  addSuppressions:
    'adds up to 1,000 addresses at once, each its own key: no one id, and addresses are personal data the audit log does not hold',
};

const isCreate = (operation: Operation) =>
  operation.method !== 'get' &&
  operation.auth !== 'public' &&
  isAuditedOperation(operation.operationId) &&
  (201 in operation.responses || /^((create|start|add)|session(Create|Start|Add))[A-Z]/.test(operation.operationId));

const creates = OPERATIONS.filter(isCreate);

/** The schema at a dotted path of an object schema (optional and nullable wrappers looked through). */
function schemaAt(schema: z.ZodType | undefined, path: string): z.ZodType | undefined {
  let node: unknown = schema;
  for (const key of path.split('.')) {
    while (node instanceof z.ZodOptional || node instanceof z.ZodNullable) node = node.unwrap();
    node = node instanceof z.ZodObject ? (node.shape as Record<string, z.ZodType>)[key] : undefined;
  }
  return node as z.ZodType | undefined;
}

describe('audited creates', () => {
  it('are found in the declarations (the list cannot be empty)', () => {
    expect(creates.map((operation) => operation.operationId)).toEqual(
      expect.arrayContaining([
        'createApiKey',
        'createSmtpCredential',
        'createDomain',
        'createWebhook',
        'sessionCreateWebhook',
        'createInvitation',
        'startExport',
      ]),
    );
  });

  it.each(
    creates
      .filter((operation) => !(operation.operationId in WITHOUT_ONE_ID))
      .map((operation) => [operation.operationId, operation] as const),
  )('%s declares the id it creates, a string of its answer', (_id, operation) => {
    expect(operation.creates).toEqual({ param: expect.stringMatching(/^\w+$/), at: expect.stringMatching(/^\w+(\.\w+)*$/) });
    const [, success] = Object.entries(operation.responses).find(([status]) => Number(status) >= 200 && Number(status) < 300)!;
    expect(schemaAt(success.schema, operation.creates!.at)).toBeInstanceOf(z.ZodString);
  });

  it('every exception is a create of the declarations', () => {
    for (const operationId of Object.keys(WITHOUT_ONE_ID)) expect(creates.map((operation) => operation.operationId)).toContain(operationId);
  });
});
