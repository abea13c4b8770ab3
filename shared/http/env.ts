import type { LambdaContext, LambdaEvent } from 'hono/aws-lambda';
import type { Principal } from '../usecases/principal';

/** Hono environment of every API group. */
export interface ApiEnv {
  Bindings: { event?: LambdaEvent; lambdaContext?: LambdaContext };
  Variables: { requestId: string; principal: Principal };
}
