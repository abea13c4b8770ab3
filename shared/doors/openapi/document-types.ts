/**
 * The shapes of the OpenAPI 3.1 document (./document.ts builds it; the reference page, the contract tests and
 * the fuzzer read it), and of what it is built from (`ApiDescription`).
 */
import type * as z from 'zod';
import type { Operation } from './operation';

export type JsonSchema = { [key: string]: unknown };

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  'x-api-group': string;
  'x-scopes'?: string[];
  parameters?: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, JsonSchema>;
  security: Record<string, string[]>[];
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: JsonSchema & { title: string; version: string; description: string };
  servers: JsonSchema[];
  tags: { name: string; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, JsonSchema>;
    headers: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
  };
}

/** What the document describes: every operation in the reference's order, the reference's sections, and the response components the groups name. */
export interface ApiDescription {
  operations: readonly Operation[];
  tags: readonly { name: string; description: string }[];
  schemas: readonly (readonly [z.ZodType, string])[];
}
