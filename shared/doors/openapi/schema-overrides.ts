/**
 * What the document changes in zod's JSON Schema of a component (z.toJSONSchema's `override`): a schema
 * validated by hand-written dispatch becomes a $ref to the component that documents it, and an object
 * that accepts aliases of its fields lists each alias beside its field.
 */
import type * as z from 'zod';
import { ATTACHMENT_UPLOAD_ALIASES, createAttachmentUploadSchema } from '../../domain/emails/attachment-upload';
import { ATTACHMENT_ALIASES, attachmentReferenceSchema, attachmentSchema, inlineAttachmentSchema } from '../../domain/emails/attachments';
import { SEND_REQUEST_ALIASES, sendRequestSchema } from '../../domain/emails/send-request';
import { stepSchema as stepValidation } from '../../domain/automations/validate-definition';
import type { JsonSchema } from './document-types';
import { SCHEMA_REF } from './schema-ref';

/** Objects that accept aliases of their fields (alias -> canonical): each alias is listed beside its field. */
const ALIASES = new Map<z.ZodType, Readonly<Record<string, string>>>([
  [sendRequestSchema, SEND_REQUEST_ALIASES],
  [inlineAttachmentSchema, ATTACHMENT_ALIASES],
  [attachmentReferenceSchema, ATTACHMENT_ALIASES],
  [createAttachmentUploadSchema, ATTACHMENT_UPLOAD_ALIASES],
]);

/** Schemas validated by hand-written dispatch (z.unknown().transform): documented by a component. */
const DOCUMENTED_AS = new Map<z.ZodType, string>([
  [attachmentSchema, 'AttachmentInput'],
  [stepValidation, 'AutomationStepInput'],
]);

export function override(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const documented = DOCUMENTED_AS.get(ctx.zodSchema as z.ZodType);
  if (documented) {
    for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
    ctx.jsonSchema.$ref = SCHEMA_REF(documented);
    return;
  }
  const aliases = ALIASES.get(ctx.zodSchema as z.ZodType);
  const properties = ctx.jsonSchema.properties as Record<string, JsonSchema> | undefined;
  if (aliases && properties) {
    const withAliases = { ...properties };
    for (const [alias, canonical] of Object.entries(aliases)) {
      const field = properties[canonical];
      if (field) withAliases[alias] = { ...field, description: `Alias of \`${canonical}\` (the canonical name wins when both are sent).` };
    }
    ctx.jsonSchema.properties = withAliases;
    // A required field may come under an alias: one of the names is required.
    const required = (ctx.jsonSchema.required as string[] | undefined) ?? [];
    const aliased = required.filter((field) => Object.values(aliases).includes(field));
    if (aliased.length > 0) {
      ctx.jsonSchema.required = required.filter((field) => !aliased.includes(field));
      if ((ctx.jsonSchema.required as string[]).length === 0) delete ctx.jsonSchema.required;
      ctx.jsonSchema.allOf = aliased.map((field) => ({
        anyOf: [field, ...Object.keys(aliases).filter((alias) => aliases[alias] === field)].map((name) => ({ required: [name] })),
      }));
    }
  }
}
