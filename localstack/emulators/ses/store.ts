/**
 * Storage of configuration sets and accepted messages, in memory and (with a data directory)
 * on disk:
 *
 *   <dataDir>/config-sets.json          all configuration sets
 *   <dataDir>/identities.json           all email identities (domains, addresses)
 *   <dataDir>/messages/<id>.eml         the raw MIME, byte for byte
 *   <dataDir>/messages/<id>.json        metadata and published events
 *
 * Every file is written atomically (temporary file + rename); writes to the same file are
 * coalesced and serialized, and flush() waits for all of them.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { ConfigurationSet, EmailIdentity, SesEventType, StoredEvent, StoredMessage } from './types';

interface MessageMeta {
  id: string;
  seq: number;
  received_at: string;
  from: string;
  to: string[];
  subject: string;
  configuration_set: string | null;
  tags: Record<string, string>;
  events: StoredEvent[];
}

interface ConfigSetsFile {
  version: 1;
  configurationSets: ConfigurationSet[];
}

interface IdentitiesFile {
  version: 1;
  identities: EmailIdentity[];
}

/** Serialized, coalescing, atomic file writer. */
class AtomicWriter {
  private readonly latest = new Map<string, string | Buffer>();
  private readonly running = new Map<string, Promise<void>>();
  private counter = 0;

  constructor(private readonly log: (msg: string) => void) {}

  write(file: string, content: string | Buffer): void {
    this.latest.set(file, content);
    if (!this.running.has(file)) {
      const run = this.drain(file).finally(() => this.running.delete(file));
      this.running.set(file, run);
    }
  }

  private async drain(file: string): Promise<void> {
    for (;;) {
      const content = this.latest.get(file);
      if (content === undefined) return;
      this.latest.delete(file);
      const tmp = `${file}.tmp-${process.pid}-${++this.counter}`;
      try {
        await fsp.writeFile(tmp, content);
        await fsp.rename(tmp, file);
      } catch (err) {
        this.log(`could not write ${file}: ${err instanceof Error ? err.message : String(err)}`);
        await fsp.rm(tmp, { force: true }).catch(() => undefined);
      }
    }
  }

  async flush(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }
}

export class SesStore {
  private readonly configSets = new Map<string, ConfigurationSet>();
  /** By lower-cased name: identities are case-insensitive. */
  private readonly identities = new Map<string, EmailIdentity>();
  private readonly messages: StoredMessage[] = [];
  private readonly byId = new Map<string, StoredMessage>();
  private nextSeq = 1;
  private readonly writer: AtomicWriter;

  private constructor(
    private readonly dataDir: string | undefined,
    private readonly log: (msg: string) => void,
  ) {
    this.writer = new AtomicWriter(log);
  }

  /** Opens the store; with a data directory, loads what an earlier run left there. */
  static async open(dataDir: string | undefined, log: (msg: string) => void): Promise<SesStore> {
    const store = new SesStore(dataDir, log);
    if (dataDir) await store.load(dataDir);
    return store;
  }

  private get messagesDir(): string | undefined {
    return this.dataDir ? path.join(this.dataDir, 'messages') : undefined;
  }

  private async load(dataDir: string): Promise<void> {
    const messagesDir = path.join(dataDir, 'messages');
    await fsp.mkdir(messagesDir, { recursive: true });
    try {
      const file = JSON.parse(await fsp.readFile(path.join(dataDir, 'config-sets.json'), 'utf8')) as ConfigSetsFile;
      for (const cs of file.configurationSets ?? []) this.configSets.set(cs.name, cs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log(`ignoring unreadable config-sets.json: ${String(err)}`);
    }
    try {
      const file = JSON.parse(await fsp.readFile(path.join(dataDir, 'identities.json'), 'utf8')) as IdentitiesFile;
      for (const identity of file.identities ?? []) this.identities.set(identity.name.toLowerCase(), identity);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log(`ignoring unreadable identities.json: ${String(err)}`);
    }
    const loaded: StoredMessage[] = [];
    for (const name of await fsp.readdir(messagesDir)) {
      if (name.includes('.tmp-')) {
        await fsp.rm(path.join(messagesDir, name), { force: true }).catch(() => undefined);
        continue;
      }
      if (!name.endsWith('.json')) continue;
      try {
        const meta = JSON.parse(await fsp.readFile(path.join(messagesDir, name), 'utf8')) as MessageMeta;
        const raw = await fsp.readFile(path.join(messagesDir, `${meta.id}.eml`));
        loaded.push({
          id: meta.id,
          seq: meta.seq,
          receivedAt: meta.received_at,
          from: meta.from,
          to: meta.to,
          subject: meta.subject,
          configurationSet: meta.configuration_set,
          tags: meta.tags,
          raw,
          events: meta.events,
        });
      } catch (err) {
        this.log(`ignoring unreadable stored message ${name}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    loaded.sort((a, b) => a.seq - b.seq);
    for (const m of loaded) {
      this.messages.push(m);
      this.byId.set(m.id, m);
      this.nextSeq = Math.max(this.nextSeq, m.seq + 1);
    }
  }

  // ---- configuration sets ----

  getConfigSet(name: string): ConfigurationSet | undefined {
    return this.configSets.get(name);
  }

  listConfigSets(): ConfigurationSet[] {
    return [...this.configSets.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Inserts or replaces a configuration set and persists all of them. */
  putConfigSet(cs: ConfigurationSet): void {
    this.configSets.set(cs.name, cs);
    this.persistConfigSets();
  }

  deleteConfigSet(name: string): boolean {
    const existed = this.configSets.delete(name);
    if (existed) this.persistConfigSets();
    return existed;
  }

  private persistConfigSets(): void {
    if (!this.dataDir) return;
    const file: ConfigSetsFile = { version: 1, configurationSets: this.listConfigSets() };
    this.writer.write(path.join(this.dataDir, 'config-sets.json'), `${JSON.stringify(file, null, 2)}\n`);
  }

  // ---- identities ----

  getIdentity(name: string): EmailIdentity | undefined {
    return this.identities.get(name.toLowerCase());
  }

  /** Sorted by name. */
  listIdentities(): EmailIdentity[] {
    return [...this.identities.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Inserts or replaces an identity and persists all of them. */
  putIdentity(identity: EmailIdentity): void {
    this.identities.set(identity.name.toLowerCase(), identity);
    this.persistIdentities();
  }

  deleteIdentity(name: string): boolean {
    const existed = this.identities.delete(name.toLowerCase());
    if (existed) this.persistIdentities();
    return existed;
  }

  private persistIdentities(): void {
    if (!this.dataDir) return;
    const file: IdentitiesFile = { version: 1, identities: this.listIdentities() };
    this.writer.write(path.join(this.dataDir, 'identities.json'), `${JSON.stringify(file, null, 2)}\n`);
  }

  // ---- messages ----

  addMessage(input: Omit<StoredMessage, 'seq' | 'events'>): StoredMessage {
    const message: StoredMessage = { ...input, seq: this.nextSeq++, events: [] };
    this.messages.push(message);
    this.byId.set(message.id, message);
    const dir = this.messagesDir;
    if (dir) {
      this.writer.write(path.join(dir, `${message.id}.eml`), message.raw);
      this.persistMeta(message);
    }
    return message;
  }

  getMessage(id: string): StoredMessage | undefined {
    return this.byId.get(id);
  }

  /** Messages, newest first. */
  listMessages(): StoredMessage[] {
    return [...this.messages].reverse();
  }

  recordEvent(id: string, type: SesEventType, at: string): void {
    const message = this.byId.get(id);
    if (!message) return;
    message.events.push({ type, at });
    this.persistMeta(message);
  }

  private persistMeta(m: StoredMessage): void {
    const dir = this.messagesDir;
    if (!dir) return;
    const meta: MessageMeta = {
      id: m.id,
      seq: m.seq,
      received_at: m.receivedAt,
      from: m.from,
      to: m.to,
      subject: m.subject,
      configuration_set: m.configurationSet,
      tags: m.tags,
      events: m.events,
    };
    // The .eml is queued first, so a .json never refers to a missing .eml after flush().
    this.writer.write(path.join(dir, `${m.id}.json`), `${JSON.stringify(meta, null, 2)}\n`);
  }

  /** Waits until everything is on disk. */
  flush(): Promise<void> {
    return this.writer.flush();
  }
}
