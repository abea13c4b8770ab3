/** The AWS clients' HTTP request handler options (./client-options.ts, ./kms-client.ts). */

/**
 * Sockets one client may hold open to its endpoint. The SDK's default is 50, and its connectionTimeout
 * counts from the request, so a request queued behind 50 busy sockets for 3 s fails as if the endpoint
 * were unreachable ("the request socket did not establish a connection ..."). A Lambda handles one
 * request at a time and never comes near it; a process serving many requests at once does (the SMTP
 * relay's task, every function of the local cloud: 200 concurrent sends queued there and answered 503).
 */
export const CLIENT_MAX_SOCKETS = 1000;

/** The request handler's options: fail-fast timeouts, and room for a busy process's concurrent calls. */
export const REQUEST_HANDLER_OPTIONS = {
  // Fail fast rather than hang on an unreachable endpoint.
  connectionTimeout: 3000,
  requestTimeout: 15000,
  httpAgent: { maxSockets: CLIENT_MAX_SOCKETS },
  httpsAgent: { maxSockets: CLIENT_MAX_SOCKETS },
};
