import type { LambdaContext, LambdaEvent } from 'hono/aws-lambda';
import type { ActiveSession } from '../../usecases/dashboard/sessions';
import type { Principal } from '../../usecases/access/principal';

/** Hono environment of every API group. */
export interface ApiEnv {
  Bindings: { event?: LambdaEvent; lambdaContext?: LambdaContext };
  Variables: {
    requestId: string;
    /** SHA-256 of the caller's API key (always set once authenticated or deferred). */
    apiKeyHash: string;
    /** Set by authentication, except on routes that resolve it in their own first read (POST /emails). */
    principal: Principal;
    /** The operation a route() serves (./route.ts): what the audit log names a change by. */
    operationId: string;
    /** Set by session authentication (the dashboard group: shared/doors/http/middleware/session.ts). */
    session: ActiveSession;
    /** The ids a create made, by the name its audit record gives them (./created-ids.ts). */
    createdIds: Record<string, string>;
  };
}
