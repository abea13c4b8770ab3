import { compileRoutes, matchRoute } from '#localstack/cloud/api/routes';

const routes = compileRoutes([
  { routeKey: 'ANY /emails', target: 'emails' },
  { routeKey: 'ANY /emails/{proxy+}', target: 'emails' },
  { routeKey: 'GET /emails/special', target: 'special' },
  { routeKey: 'POST /domains/{id}', target: 'domains' },
]);

describe('API Gateway route matching', () => {
  it('matches exact paths and greedy proxies', () => {
    expect(matchRoute(routes, 'POST', '/emails')).toMatchObject({ routeKey: 'ANY /emails', pathParameters: {} });
    expect(matchRoute(routes, 'GET', '/emails/msg_1/x')).toMatchObject({
      routeKey: 'ANY /emails/{proxy+}',
      pathParameters: { proxy: 'msg_1/x' },
    });
  });

  it('prefers literal segments and exact methods', () => {
    expect(matchRoute(routes, 'GET', '/emails/special')?.target).toBe('special');
    expect(matchRoute(routes, 'POST', '/emails/special')?.target).toBe('emails');
  });

  it('binds path parameters and respects methods', () => {
    expect(matchRoute(routes, 'POST', '/domains/dom_1')).toMatchObject({ pathParameters: { id: 'dom_1' } });
    expect(matchRoute(routes, 'GET', '/domains/dom_1')).toBeNull();
    expect(matchRoute(routes, 'POST', '/domains/dom_1/extra')).toBeNull();
    expect(matchRoute(routes, 'GET', '/')).toBeNull();
    expect(matchRoute(routes, 'GET', '/emailsx')).toBeNull();
  });
});
