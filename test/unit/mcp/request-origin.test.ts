/** Where the HTTP server's tools call the API: the origin the request came in on (clients/mcp/request-origin.ts). */
import { requestOrigin } from '../../../clients/mcp/request-origin';

describe('requestOrigin', () => {
  it('is https on API Gateway (X-Forwarded-Proto: https), the domain and no path', () => {
    expect(requestOrigin(new Request('https://abc.execute-api.eu-west-1.amazonaws.com/mcp', { headers: { 'x-forwarded-proto': 'https' } }))).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
  });

  it('is http on the local gateway (hono/aws-lambda writes https, no X-Forwarded-Proto, a loopback host)', () => {
    expect(requestOrigin(new Request('https://127.0.0.1:3000/mcp'))).toBe('http://127.0.0.1:3000');
    expect(requestOrigin(new Request('https://localhost:4000/mcp'))).toBe('http://localhost:4000');
  });

  it('keeps the URL scheme for another host without the header, and follows the header when there is one', () => {
    expect(requestOrigin(new Request('https://mail.example.com/mcp'))).toBe('https://mail.example.com');
    expect(requestOrigin(new Request('https://127.0.0.1:3000/mcp', { headers: { 'x-forwarded-proto': 'https, http' } }))).toBe('https://127.0.0.1:3000');
  });
});
