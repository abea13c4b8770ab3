/**
 * The document's schema components: one registry per direction (requests as clients may send them, `io:
 * 'input'`; responses as the API answers, `io: 'output'`), each schema named once, converted with
 * ./schema-overrides.ts and cleaned (./clean-schema.ts), the fields of ./field-descriptions.ts described.
 */
import * as z from 'zod';
import { sendRequestSchema } from '../../domain/emails/send-request';
import { conditionSchema } from '../../domain/automations/condition-schema';
import { clean } from './clean-schema';
import { errorBodySchema, okSchema, tagSchema, unauthorizedBodySchema } from './common-schemas';
import type { ApiDescription, JsonSchema } from './document-types';
import { FIELD_DESCRIPTIONS } from './field-descriptions';
import { attachmentInputSchema, dnsCredentialsSchema, stepInputSchema } from './requests';
import { SCHEMA_REF } from './schema-ref';
import { override } from './schema-overrides';

/** Request components with a name of their own (others are named after their operation). */
const REQUEST_COMPONENTS: [z.ZodType, string][] = [
  [sendRequestSchema, 'SendEmailRequest'],
  [attachmentInputSchema, 'AttachmentInput'],
  [stepInputSchema, 'AutomationStepInput'],
  [conditionSchema, 'Condition'],
  [dnsCredentialsSchema, 'DnsCredentials'],
];

/** Response components with a name of their own, before the groups' (`ApiDescription.schemas`). */
const COMMON_RESPONSE_COMPONENTS: [z.ZodType, string][] = [
  [errorBodySchema, 'Error'],
  [unauthorizedBodySchema, 'Unauthorized'],
  [okSchema, 'Ok'],
  [tagSchema, 'Tag'],
];

/** The fields FIELD_DESCRIPTIONS describes, on the converted components (a field it names must exist). */
function describeFields(out: Record<string, JsonSchema>): void {
  for (const [name, descriptions] of Object.entries(FIELD_DESCRIPTIONS)) {
    if (!out[name]) continue;
    const properties = out[name].properties as Record<string, JsonSchema> | undefined;
    for (const [field, description] of Object.entries(descriptions)) {
      if (!properties?.[field]) throw new Error(`OpenAPI: ${name} has no field ${field} to describe`);
      properties[field] = { ...properties[field], description };
    }
  }
}

export class Components {
  readonly registry = z.registry<{ id: string }>();
  private readonly names = new Map<z.ZodType, string>();
  constructor(readonly io: 'input' | 'output') {}

  /** The component name of `schema`, registering it under `name` the first time. */
  name(schema: z.ZodType, name: string): string {
    const known = this.names.get(schema);
    if (known) return known;
    if ([...this.names.values()].includes(name)) throw new Error(`OpenAPI: two ${this.io} schemas named ${name}`);
    this.names.set(schema, name);
    this.registry.add(schema, { id: name });
    return name;
  }

  schemas(): Record<string, JsonSchema> {
    const { schemas } = z.toJSONSchema(this.registry, {
      io: this.io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      uri: SCHEMA_REF,
      override,
    });
    const out = clean(schemas) as Record<string, JsonSchema>;
    describeFields(out);
    return out;
  }
}

/** The request and response components, the ones with a name of their own registered first (the operations name the others). */
export function namedComponents(api: ApiDescription): { requests: Components; responses: Components } {
  const requests = new Components('input');
  const responses = new Components('output');
  for (const [schema, name] of REQUEST_COMPONENTS) requests.name(schema, name);
  for (const [schema, name] of [...COMMON_RESPONSE_COMPONENTS, ...api.schemas]) responses.name(schema, name);
  return { requests, responses };
}

/** Both directions' components as one sorted map; a name both use must be the same schema. */
export function allSchemas(requests: Components, responses: Components): Record<string, JsonSchema> {
  const requestSchemas = requests.schemas();
  const responseSchemas = responses.schemas();
  for (const [name, schema] of Object.entries(requestSchemas)) {
    if (responseSchemas[name] && JSON.stringify(responseSchemas[name]) !== JSON.stringify(schema))
      throw new Error(`OpenAPI: ${name} differs between requests and responses`);
  }
  return Object.fromEntries(Object.entries({ ...responseSchemas, ...requestSchemas }).sort(([a], [b]) => a.localeCompare(b)));
}
