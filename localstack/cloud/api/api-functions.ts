/**
 * The API groups' handlers loaded into the local API Gateway (./api-server.ts), each as the local runtime
 * runs its function (../lambda/local-functions.ts), with the HTTP API's routes.
 */
import { installFunctionEnvironments, loadOnFirstInvoke } from '../lambda/function-context';
import type { ApiHandler } from '../lambda/lambda-http';
import type { LocalFunctionOf } from '../lambda/local-functions';
import type { LocalDeployment } from '../template/deploy';
import type { LocalGateway } from './api-server';
import { compileRoutes } from './routes';

/** Puts the API groups' handlers into `gateway`, each loaded on its first invocation (and reading its environment then, as in Lambda), and routes to them. */
export function loadApiFunctions(gateway: LocalGateway, deployment: LocalDeployment, functionOf: LocalFunctionOf): void {
  installFunctionEnvironments();
  const apiFunctions = new Map(deployment.routes.map((route) => [route.function.name, functionOf(route.function)]));
  for (const fn of apiFunctions.values())
    gateway.handlers[fn.name] = { handler: loadOnFirstInvoke<ApiHandler>(fn), timeoutSeconds: fn.timeoutSeconds };
  // The default endpoint serves the APIs whose execute-api endpoint is on; the others only their custom domain names (./custom-domains-server.ts).
  const executeApi = new Set(deployment.apis.filter((api) => api.executeApiEndpoint).map((api) => api.apiId));
  const compiled = (routes: LocalDeployment['routes']) =>
    compileRoutes(routes.map((route) => ({ routeKey: route.routeKey, target: route.function.name })));
  gateway.apiRoutes = Object.fromEntries(
    deployment.apis.map((api) => [api.apiId, compiled(deployment.routes.filter((route) => route.apiId === api.apiId))]),
  );
  gateway.routes = compiled(deployment.routes.filter((route) => executeApi.has(route.apiId)));
}
