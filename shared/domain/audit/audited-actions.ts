/**
 * Which requests are audited (docs/audit-log.md, "What is recorded"): every successful change (a
 * non-GET/HEAD/OPTIONS request answered 2xx, a dashboard form's success redirect) by an API key or a
 * dashboard user, except the ones listed here, which are not changes of the account's setup: sends and
 * what they start (the email log records them), previews, and test events. Sign-ins are recorded by the
 * sign-in use case itself (shared/usecases/dashboard/sign-in.ts), with their failures. Pure: no I/O.
 */

/** operationIds never audited, and why. */
export const UNAUDITED_OPERATIONS: Readonly<Record<string, string>> = {
  sendEmail: 'a send: the email log',
  sendBatch: 'sends: the email log',
  resendEmail: 'a send: the email log',
  sendTestEvent: 'a test webhook event, nothing changes',
  createAttachmentUpload: 'part of a send',
  sendEvent: 'automation events are sends: the runs record them',
  sessionSendEvent: 'automation events are sends: the runs record them',
  renderTemplate: 'a preview, nothing changes',
  signIn: 'recorded by the sign-in use case, with failures',
  acceptInvitation: 'no actor yet: the new member is recorded by the invitation (createInvitation)',
};

/** Routes without an operation never audited: the MCP door's tools call the API itself, where each change is recorded. */
export const UNAUDITED_ROUTES: ReadonlySet<string> = new Set(['POST /mcp']);

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isChangeMethod(method: string): boolean {
  return !READ_METHODS.has(method.toUpperCase());
}

/** Whether a change is audited: by its operationId, or, for a route without one, its `<METHOD> <pattern>`. */
export function isAuditedOperation(operationId: string | null, route?: string): boolean {
  if (operationId === null) return route === undefined || !UNAUDITED_ROUTES.has(route);
  return !(operationId in UNAUDITED_OPERATIONS);
}

/**
 * The path parameters of `pattern` (a Hono route: `/webhooks/:id`) in `path`, decoded: the resource ids a
 * record names. Wildcards are not parameters.
 */
export function pathParams(pattern: string, path: string): Record<string, string> {
  const names = pattern.split('/');
  const values = path.split('/');
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    const match = /^:(\w+)/.exec(name);
    const value = values[i];
    if (!match || value === undefined || value === '') return;
    let decoded = value;
    try {
      decoded = decodeURIComponent(value);
    } catch {
      // kept as it is
    }
    params[match[1]!] = decoded.slice(0, 256);
  });
  return params;
}
