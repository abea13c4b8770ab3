/** What a local route (not an SES operation) answers: its own status, headers and body. */
export interface LocalReply {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

export function localJson(value: unknown): LocalReply {
  return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}
