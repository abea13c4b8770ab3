/**
 * The HTTPS endpoint of the API Gateway emulator's custom domain names (docs/local-cloud/custom-domains.md):
 * one TLS listener for every domain name, as API Gateway serves a regional custom domain name on its
 * target. The TLS server name (SNI) picks the domain name and the certificate it was created with (its
 * key and chain from the ACM emulator); a name of no domain name, or whose certificate is not issued,
 * fails the handshake. A request is routed by its Host's domain name to the API that name is mapped to,
 * among that API's routes only, with the same Lambda invocation as the default endpoint (./api-server.ts);
 * the function's event names the custom domain name (requestContext.domainName and the host header). A
 * Host of no mapped domain name, or a path no route of the API takes, is API Gateway's own 404
 * `{"message":"Not Found"}`.
 */
import { createServer, type Server } from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { IssuedCertificate } from '../../emulators/acm';
import type { DomainNameTarget } from '../../emulators/apigatewayv2';
import { configureGatewayServer, gatewayListener, routeToFunction, sendJson, type LocalGateway } from './api-server';

/** What the listener reads of the API Gateway and ACM emulators. */
export interface CustomDomains {
  /** The certificate ARN of the domain name `host` names (mapped or not); null when none. */
  certificateArnOf(host: string): string | null;
  /** The mapping of the domain name `host` names; null when none. */
  targetOf(host: string): DomainNameTarget | null;
  /** The key and chain of an issued certificate. */
  issuedCertificate(arn: string): IssuedCertificate | undefined;
}

export function createCustomDomainsServer(gateway: LocalGateway, domains: CustomDomains, log: (message: string) => void): Server {
  const contexts = new Map<string, SecureContext>();
  const contextOf = (serverName: string): SecureContext | undefined => {
    const arn = domains.certificateArnOf(serverName);
    const issued = arn ? domains.issuedCertificate(arn) : undefined;
    if (!arn || !issued) return undefined;
    let context = contexts.get(arn);
    if (!context) {
      context = createSecureContext({ key: issued.privateKeyPem, cert: `${issued.certificatePem.trim()}\n${issued.chainPem.trim()}\n` });
      contexts.set(arn, context);
    }
    return context;
  };
  const notFound = (res: Parameters<typeof sendJson>[0]) => () => sendJson(res, 404, { message: 'Not Found' });
  const server = createServer(
    {
      SNICallback: (serverName, done) => {
        const context = contextOf(serverName);
        if (context) done(null, context);
        else done(new Error(`no custom domain name ${serverName}`));
      },
    },
    gatewayListener(async (req, res, started) => {
      const target = domains.targetOf(req.headers.host ?? '');
      const routes = target ? gateway.apiRoutes[target.apiId] : undefined;
      if (!target || !routes) return notFound(res)();
      await routeToFunction(gateway, routes, { req, res, started, domain: target }, notFound(res), log);
    }, log),
  );
  return configureGatewayServer(server);
}
