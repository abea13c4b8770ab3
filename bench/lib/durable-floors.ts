/**
 * Fair floors for the SMTP benches (issue 49 item 4): an smtp-server with the product's certificate that,
 * before its 250, does the durable work the product must do for the message, with the product's own clients,
 * so the figure compares like with like (a floor that discards each message measures only SMTP):
 *
 *  - the relay's (bench:smtp): AUTH accepted as any credential; then the send's one read (key, account, the
 *    sender domain's claim, the recipient's suppression: one strongly consistent BatchGetItem) beside the raw
 *    message's S3 PUT (none for a message the relay keeps in its item), then the email's conditional PutItem, a copy of an email the relay wrote (its raw
 *    message key pointing at the floor's object). The table's stream hands it to the send queue and the
 *    workers deliver it exactly as the relay's, so the floor's phase carries the same pipeline load.
 *  - the MX's (bench:inbound): no AUTH; the raw message's S3 PUT, then one inbound queue message (the shape the
 *    MX sends, authentication `none` as the floor checks nothing), which the inbound worker records exactly as
 *    the MX's.
 *
 * What the product does beyond that (the relay's reads at MAIL FROM and RCPT TO, the MX's SPF, DKIM and DMARC
 * lookups and its raw message markers) is the gap the figure shows.
 */
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

export interface DurableFloor {
  port: number;
  /** The ids the floor answered with (`queued as <id>`), in order. */
  ids: string[];
  close(): Promise<void>;
}

type StoreMessage = (raw: Buffer, session: SMTPServerSession) => Promise<string>;

function collect(stream: SMTPServerDataStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** An smtp-server on loopback with `tls` (AUTH when `auth`) that answers 250 once `store` resolved, 451 when it threw. */
export async function startDurableFloor(tls: { key: string; cert: string }, auth: boolean, store: StoreMessage): Promise<DurableFloor> {
  const ids: string[] = [];
  const server = new SMTPServer({
    ...tls,
    ...(auth
      ? {
          authMethods: ['PLAIN', 'LOGIN'],
          allowInsecureAuth: false,
          onAuth: (login, _session, callback) => callback(null, { user: login.username }),
        }
      : { authOptional: true, disabledCommands: ['AUTH'] }),
    size: 40 * 1024 * 1024,
    onData: (stream, session, callback) => {
      collect(stream)
        .then((raw) => store(raw, session))
        .then(
          (id) => {
            ids.push(id);
            callback(null, `Ok: queued as ${id}`);
          },
          (error: Error) => callback(Object.assign(new Error(`floor: ${error.message}`), { responseCode: 451 })),
        );
    },
    logger: false,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { port, ids, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The relay floor's calls, with the product's clients: the read, the PUT and the write. */
export interface RelayFloorCalls {
  /** The send's one read (BatchGetItem of key, account, claim, suppression) for message `n`. */
  read(n: number): Promise<void>;
  /** The raw message's PUT at `key`. */
  putRaw(key: string, raw: Buffer): Promise<void>;
  /**
   * A new email for message `raw`, the `n`th: its id, where its raw message goes (none when the item keeps it, as the
   * relay keeps a message up to INLINE_MIME_LIMIT), and its conditional PutItem.
   */
  newEmail(n: number, raw: Buffer): { id: string; rawKey?: string; write(): Promise<void> };
}

/** The relay's floor: the read beside the PUT (when the message is not kept in the item), then the write (two round trips, as the relay's best path). */
export function relayFloorStore(calls: RelayFloorCalls): StoreMessage {
  let next = 0;
  return async (raw) => {
    const n = next++;
    const email = calls.newEmail(n, raw);
    await Promise.all([calls.read(n), email.rawKey ? calls.putRaw(email.rawKey, raw) : undefined]);
    await email.write();
    return email.id;
  };
}

/** The MX floor's calls: the PUT, and one inbound queue message naming the object. */
export interface MxFloorCalls {
  putRaw(key: string, raw: Buffer): Promise<void>;
  enqueue(rawKey: string, size: number, session: SMTPServerSession): Promise<string>;
  rawKey(): string;
}

/** The MX's floor: the PUT, then the queue message (two round trips). */
export function mxFloorStore(calls: MxFloorCalls): StoreMessage {
  return async (raw, session) => {
    const key = calls.rawKey();
    await calls.putRaw(key, raw);
    return calls.enqueue(key, raw.length, session);
  };
}
