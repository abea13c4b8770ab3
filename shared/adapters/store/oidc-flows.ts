/**
 * OpenID Connect sign-ins under way (docs/dashboard.md, "Sign-in with OpenID Connect"): one item per flow,
 * keyed by the SHA-256 of the token only the browser's `svc_oidc` cookie carries (`OIDCFLOW#<hash>`), with
 * the flow's state, nonce, PKCE verifier, redirect URI and `next`, and a TTL at its expiry. The callback
 * takes it with one conditional delete that answers the item: a flow is used once, whatever its outcome.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { OidcFlow } from '../../domain/dashboard/oidc';
import { modelSchema } from '../../domain/model-schema';
import { decodeItem } from './decode';
import { keys } from './keys';
import type { Table } from './table';

const flowSchema = modelSchema<OidcFlow>()(
  z.object({
    state: z.string(),
    nonce: z.string(),
    code_verifier: z.string(),
    redirect_uri: z.string(),
    next: z.string(),
    created_at: z.string(),
    expires_at: z.string(),
  }),
);

export class OidcFlowRepository {
  constructor(private readonly table: Table) {}

  async create(tokenHash: string, flow: OidcFlow): Promise<void> {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...keys.oidcFlow(tokenHash), type: 'oidc_flow', ...flow, ttl: Math.ceil(Date.parse(flow.expires_at) / 1000) },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  /** Deletes the flow and answers it (null when there is none: never started, already used, or swept by its TTL). */
  async take(tokenHash: string): Promise<OidcFlow | null> {
    const result = await this.table.client.send(
      new DeleteCommand({ TableName: this.table.name, Key: keys.oidcFlow(tokenHash), ReturnValues: 'ALL_OLD' }),
    );
    return result.Attributes ? decodeItem(flowSchema, result.Attributes, 'OidcFlow') : null;
  }
}
