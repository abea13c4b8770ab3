/**
 * The origin a request came in on (scheme://host[:port]), where the HTTP server's tools call the API.
 * hono/aws-lambda builds every request URL as https://<requestContext.domainName>: on AWS that is the API's
 * own domain, set by API Gateway (not the client's Host header), over https (X-Forwarded-Proto: https). The
 * local gateway sets no X-Forwarded-Proto and serves plain http on loopback, so without the header a
 * loopback host means http.
 */

const LOOPBACK_HOST = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/i;

export function requestOrigin(request: Request): string {
  const url = new URL(request.url);
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  const scheme = forwarded === 'http' || forwarded === 'https' ? forwarded : LOOPBACK_HOST.test(url.host) ? 'http' : url.protocol.replace(':', '');
  return `${scheme}://${url.host}`;
}
