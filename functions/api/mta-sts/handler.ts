/** Placeholder while hosted MTA-STS is built (this session): replaced by the policy reader. */
export const handler = async () => ({ statusCode: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not found\n' });
