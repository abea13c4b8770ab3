/**
 * Durable SQS queues and S3 objects for the local cloud. fauxqs keeps them in memory; this journal makes
 * what it holds survive a SIGKILL of the whole process group, as SQS and S3 survive a crash of a client.
 *
 *   DATA_DIR/messaging/snapshot.json   every live message and object record, as of sequence `seq`
 *   DATA_DIR/messaging/journal.jsonl   each change since, one JSON line with its sequence number
 *   DATA_DIR/messaging/objects/<sha>   object bytes, one file per version
 *
 * Every change fauxqs makes to a queue or bucket (./messaging-tap.ts) is appended with a synchronous
 * write(2) before fauxqs answers the request that made it, so a killed process loses nothing it
 * acknowledged (the kernel keeps the page cache); an fdatasync follows within SYNC_DELAY_MS (a power
 * loss may cost that much). Receives and visibility changes are not journaled: after a restart every
 * message not deleted is visible again, with its receive count reset. On start the snapshot and the
 * journal are replayed (a torn last line is ignored; lines the snapshot already includes are skipped),
 * the messages and objects put back, and a fresh snapshot written; the journal is compacted the same
 * way when it grows.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fdatasync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { LocalMessaging } from './local-messaging';
import type { S3Object, SqsMessage } from './fauxqs-classes';
import type { MessagingObserver } from './messaging-tap';

export interface JournaledMessage {
  id: string;
  body: string;
  attributes: Record<string, unknown>;
  sent: number;
  delayUntil?: number;
}

export interface ObjectRecord {
  bucket: string;
  key: string;
  /** File name under objects/. */
  file: string;
  contentType: string;
  metadata: Record<string, string>;
}

type Change =
  | { s: number; op: 'enq'; q: string; m: JournaledMessage }
  | { s: number; op: 'mv'; from: string; to: string; id: string }
  | { s: number; op: 'del'; q: string; id: string }
  | { s: number; op: 'purge'; q: string }
  | { s: number; op: 'put'; o: ObjectRecord }
  | { s: number; op: 'rm'; bucket: string; key: string };

/** A change without its sequence number (distributes over the union). */
type NewChange = Change extends infer C ? (C extends Change ? Omit<C, 's'> : never) : never;

interface Snapshot {
  version: 1;
  seq: number;
  queues: Record<string, JournaledMessage[]>;
  objects: ObjectRecord[];
}

/** Journal lines, or bytes, after which the journal is folded into a fresh snapshot. */
const COMPACT_AFTER_LINES = 100_000;
const COMPACT_AFTER_BYTES = 64 * 1024 * 1024;
const SYNC_DELAY_MS = 10;

const objectId = (bucket: string, key: string) => `${bucket}\u0000${key}`;

class State {
  seq = 0;
  readonly queues = new Map<string, Map<string, JournaledMessage>>();
  readonly owner = new Map<string, string>();
  readonly objects = new Map<string, ObjectRecord>();

  private queue(name: string) {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Map();
      this.queues.set(name, queue);
    }
    return queue;
  }

  apply(change: Change): void {
    this.seq = Math.max(this.seq, change.s);
    switch (change.op) {
      case 'enq':
        this.queue(change.q).set(change.m.id, change.m);
        this.owner.set(change.m.id, change.q);
        return;
      case 'mv': {
        const message = this.queues.get(change.from)?.get(change.id);
        this.queues.get(change.from)?.delete(change.id);
        if (message) {
          this.queue(change.to).set(change.id, message);
          this.owner.set(change.id, change.to);
        }
        return;
      }
      case 'del':
        this.queues.get(change.q)?.delete(change.id);
        this.owner.delete(change.id);
        return;
      case 'purge':
        for (const id of this.queues.get(change.q)?.keys() ?? []) this.owner.delete(id);
        this.queues.get(change.q)?.clear();
        return;
      case 'put':
        this.objects.set(objectId(change.o.bucket, change.o.key), change.o);
        return;
      case 'rm':
        this.objects.delete(objectId(change.bucket, change.key));
        return;
    }
  }

  snapshot(): Snapshot {
    return {
      version: 1,
      seq: this.seq,
      queues: Object.fromEntries([...this.queues].map(([name, messages]) => [name, [...messages.values()]])),
      objects: [...this.objects.values()],
    };
  }
}

export class MessagingJournal implements MessagingObserver {
  private readonly state = new State();
  private fd: number | undefined;
  private lines = 0;
  private bytes = 0;
  private syncTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly dir: string,
    private readonly messaging: LocalMessaging,
    private readonly log: (message: string) => void,
  ) {}

  private get snapshotPath() {
    return join(this.dir, 'snapshot.json');
  }
  private get journalPath() {
    return join(this.dir, 'journal.jsonl');
  }
  private get objectsDir() {
    return join(this.dir, 'objects');
  }

  /**
   * Reads what the last run left (snapshot + journal; `legacySnapshot`: the clean-stop file of earlier
   * versions) and journals every change from now on: call it right after fauxqs starts, before anything
   * (provisioning, the emulators) can put a message on a queue.
   */
  static open(dir: string, messaging: LocalMessaging, log: (message: string) => void, legacySnapshot?: string): MessagingJournal {
    const journal = new MessagingJournal(dir, messaging, log);
    mkdirSync(journal.objectsDir, { recursive: true });
    journal.load();
    if (legacySnapshot && existsSync(legacySnapshot)) journal.importLegacy(legacySnapshot);
    journal.loaded = {
      queues: [...journal.state.queues].map(([name, messages]) => [name, [...messages.values()]] as const),
      objects: [...journal.state.objects.values()],
    };
    journal.fd = openSync(journal.journalPath, 'a');
    messaging.tap.observe(journal);
    return journal;
  }

  /** What the last run left, to put back into fauxqs once its queues and buckets exist. */
  private loaded: { queues: (readonly [string, JournaledMessage[]])[]; objects: ObjectRecord[] } = { queues: [], objects: [] };

  private load(): void {
    if (existsSync(this.snapshotPath)) {
      const snapshot = JSON.parse(readFileSync(this.snapshotPath, 'utf8')) as Snapshot;
      this.state.seq = snapshot.seq;
      for (const [queue, messages] of Object.entries(snapshot.queues))
        for (const m of messages) this.state.apply({ s: snapshot.seq, op: 'enq', q: queue, m });
      for (const o of snapshot.objects) this.state.apply({ s: snapshot.seq, op: 'put', o });
    }
    if (!existsSync(this.journalPath)) return;
    const since = this.state.seq;
    const lines = readFileSync(this.journalPath, 'utf8').split('\n');
    for (const [index, line] of lines.entries()) {
      if (line === '') continue;
      let change: Change;
      try {
        change = JSON.parse(line) as Change;
      } catch {
        // Only the last line can be torn (a kill during its append): it was never acknowledged.
        if (index < lines.length - 2) this.log(`messaging journal: unreadable line ${index + 1} skipped`);
        continue;
      }
      if (change.s > since) this.state.apply(change);
    }
  }

  /** Messages and objects of the snapshot file earlier versions wrote on a clean stop. */
  private importLegacy(path: string): void {
    const legacy = JSON.parse(readFileSync(path, 'utf8')) as {
      queues?: Record<string, { body: string; delaySeconds: number }[]>;
      objects?: Record<string, { key: string; contentType?: string; base64: string }[]>;
    };
    const now = Date.now();
    for (const [queue, messages] of Object.entries(legacy.queues ?? {})) {
      for (const [n, message] of messages.entries()) {
        this.state.apply({
          s: this.state.seq + 1,
          op: 'enq',
          q: queue,
          m: {
            id: `legacy-${now}-${queue}-${n}`,
            body: message.body,
            attributes: {},
            sent: now,
            ...(message.delaySeconds ? { delayUntil: now + message.delaySeconds * 1000 } : {}),
          },
        });
      }
    }
    for (const [bucket, objects] of Object.entries(legacy.objects ?? {})) {
      for (const object of objects) {
        const seq = this.state.seq + 1;
        const file = this.writeObjectFile(bucket, object.key, Buffer.from(object.base64, 'base64'), seq);
        this.state.apply({
          s: seq,
          op: 'put',
          o: { bucket, key: object.key, file, contentType: object.contentType ?? 'application/octet-stream', metadata: {} },
        });
      }
    }
    rmSync(path, { force: true });
  }

  /**
   * Puts every message and object the last run left back into fauxqs (call after provisioning: its
   * queues and buckets exist), then writes a fresh snapshot.
   */
  restore(): { messages: number; objects: number } {
    let messages = 0;
    let objects = 0;
    this.messaging.tap.withoutObserving(() => {
      for (const [name, queued] of this.loaded.queues) {
        const queue = this.messaging.sqs.getQueueByName(name);
        if (!queue) {
          if (queued.length) this.log(`messaging journal: queue ${name} no longer exists; its ${queued.length} messages are dropped`);
          continue;
        }
        for (const m of queued) {
          queue.enqueue(this.toSqsMessage(m));
          messages++;
        }
      }
      for (const record of this.loaded.objects) {
        const file = join(this.objectsDir, record.file);
        if (!existsSync(file)) {
          this.log(`messaging journal: object ${record.bucket}/${record.key} could not be restored`);
          continue;
        }
        this.messaging.s3.putObject(record.bucket, record.key, readFileSync(file), record.contentType, record.metadata);
        objects++;
      }
    });
    this.loaded = { queues: [], objects: [] };
    this.compact();
    return { messages, objects };
  }

  private append(change: NewChange): void {
    const full = { ...change, s: this.state.seq + 1 } as Change;
    this.state.apply(full);
    if (this.fd === undefined) return;
    const line = `${JSON.stringify(full)}\n`;
    writeSync(this.fd, line);
    this.lines++;
    this.bytes += line.length;
    this.syncTimer ??= setTimeout(() => {
      this.syncTimer = undefined;
      if (this.fd !== undefined) fdatasync(this.fd, () => undefined);
    }, SYNC_DELAY_MS);
    if (this.lines >= COMPACT_AFTER_LINES || this.bytes >= COMPACT_AFTER_BYTES) this.compact();
  }

  /** A journaled message as fauxqs keeps one: its MD5s as fauxqs computes them, its id, sent time and delay kept. */
  private toSqsMessage(m: JournaledMessage): SqsMessage {
    const made = this.messaging.createMessage(m.body, m.attributes as SqsMessage['messageAttributes']);
    return {
      ...made,
      messageId: m.id,
      sentTimestamp: m.sent,
      delayUntil: m.delayUntil && m.delayUntil > Date.now() ? m.delayUntil : undefined,
    };
  }

  enqueued(queue: string, message: SqsMessage): void {
    const owner = this.state.owner.get(message.messageId);
    if (owner !== undefined && owner !== queue) {
      // A redrive to the DLQ re-enqueues the same message object there.
      this.append({ op: 'mv', from: owner, to: queue, id: message.messageId });
      return;
    }
    this.append({
      op: 'enq',
      q: queue,
      m: {
        id: message.messageId,
        body: message.body,
        attributes: message.messageAttributes,
        sent: message.sentTimestamp,
        ...(message.delayUntil ? { delayUntil: message.delayUntil } : {}),
      },
    });
  }

  deleted(queue: string, messageId: string): void {
    this.append({ op: 'del', q: queue, id: messageId });
  }

  purged(queue: string): void {
    this.append({ op: 'purge', q: queue });
  }

  objectPut(bucket: string, key: string, object: S3Object): void {
    const seq = this.state.seq + 1;
    const file = this.writeObjectFile(bucket, key, object.body, seq);
    this.append({ op: 'put', o: { bucket, key, file, contentType: object.contentType, metadata: object.metadata ?? {} } });
  }

  objectDeleted(bucket: string, key: string): void {
    if (this.state.objects.has(objectId(bucket, key))) this.append({ op: 'rm', bucket, key });
  }

  private writeObjectFile(bucket: string, key: string, body: Buffer, seq: number): string {
    const file = `${createHash('sha256').update(objectId(bucket, key)).digest('hex').slice(0, 32)}.${seq}`;
    writeFileSync(join(this.objectsDir, file), body);
    return file;
  }

  /** Folds the journal into a fresh snapshot (fsynced, renamed into place), empties the journal, drops unreferenced object files. */
  private compact(): void {
    const tmp = `${this.snapshotPath}.tmp`;
    const fd = openSync(tmp, 'w');
    writeSync(fd, JSON.stringify(this.state.snapshot()));
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, this.snapshotPath);
    if (this.fd !== undefined) ftruncateSync(this.fd, 0);
    this.lines = 0;
    this.bytes = 0;
    const live = new Set([...this.state.objects.values()].map((o) => o.file));
    for (const file of readdirSync(this.objectsDir)) if (!live.has(file)) unlinkSync(join(this.objectsDir, file));
  }

  /** Journal size now (tests, /health). */
  size(): { lines: number; bytes: number } {
    return { lines: this.lines, bytes: existsSync(this.journalPath) ? statSync(this.journalPath).size : 0 };
  }

  /** A clean stop: one last snapshot, and no more journaling. */
  close(): void {
    this.messaging.tap.observe(null);
    clearTimeout(this.syncTimer);
    if (this.fd === undefined) return;
    this.compact();
    closeSync(this.fd);
    this.fd = undefined;
  }
}
