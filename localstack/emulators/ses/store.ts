/**
 * Storage of configuration sets and accepted messages, in memory and (with a data directory)
 * on disk:
 *
 *   <dataDir>/config-sets.json          all configuration sets
 *   <dataDir>/identities.json           all email identities (domains, addresses)
 *   <dataDir>/tenants.json              all tenants and their resource associations
 *   <dataDir>/suppression.json          the account's and tenants' suppression lists (suppression-list.ts)
 *   <dataDir>/messages/<id>.eml         the raw MIME, byte for byte
 *   <dataDir>/messages/<id>.json        metadata, the event outbox and the published events
 *
 * Durability (SIGKILL at any moment): `addMessage` resolves only once the .eml and then the .json
 * are on disk, so SendEmail answers a MessageId only for a message that survives. The .json is the
 * commit record (renamed into place after the .eml is complete): a .eml without a .json is a send
 * that never got its answer and is removed on load. Configuration sets and identities are written
 * when changed and `settingsDurable()` waits for those writes (the server awaits it before
 * answering). Publish progress is written without waiting: losing it only re-publishes an event.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { AtomicWriter } from './atomic-writer';
import type { SesMailObject } from './events';
import type { SuppressionFile } from './suppression-file';
import type { ConfigurationSet, EmailIdentity, OutboxEntry, SesTenant, StoredEvent, StoredMessage } from './types';

interface MessageMeta {
  id: string;
  seq: number;
  received_at: string;
  from: string;
  to: string[];
  subject: string;
  configuration_set: string | null;
  tags: Record<string, string>;
  /** Absent in files of older versions (no tenant). */
  tenant_name?: string | null;
  events: StoredEvent[];
  /** Absent in files of older versions (nothing owed). */
  outbox?: OutboxEntry[];
  event_mail?: SesMailObject | null;
}

interface ConfigSetsFile {
  version: 1;
  configurationSets: ConfigurationSet[];
}

interface IdentitiesFile {
  version: 1;
  identities: EmailIdentity[];
}

interface TenantsFile {
  version: 1;
  tenants: SesTenant[];
}

export class SesStore {
  private readonly configSets = new Map<string, ConfigurationSet>();
  /** By lower-cased name: identities are case-insensitive. */
  private readonly identities = new Map<string, EmailIdentity>();
  /** By tenant name (case-sensitive, as SES). */
  private readonly tenants = new Map<string, SesTenant>();
  /** The suppression lists and account settings, as suppression-list.ts keeps them; undefined until first changed. */
  private suppression: SuppressionFile | undefined;
  private readonly messages: StoredMessage[] = [];
  private readonly byId = new Map<string, StoredMessage>();
  private nextSeq = 1;
  private readonly writer: AtomicWriter;
  /** The latest unfinished write of config-sets.json / identities.json, by file. */
  private readonly settingsWrites = new Map<string, Promise<void>>();

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
    try {
      const file = JSON.parse(await fsp.readFile(path.join(dataDir, 'tenants.json'), 'utf8')) as TenantsFile;
      for (const tenant of file.tenants ?? []) this.tenants.set(tenant.name, tenant);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log(`ignoring unreadable tenants.json: ${String(err)}`);
    }
    try {
      this.suppression = JSON.parse(await fsp.readFile(path.join(dataDir, 'suppression.json'), 'utf8')) as SuppressionFile;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log(`ignoring unreadable suppression.json: ${String(err)}`);
    }
    await this.loadMessages(messagesDir);
  }

  /** The committed messages (a .json with its .eml); a temporary file or a .eml without its .json removed. */
  private async loadMessages(messagesDir: string): Promise<void> {
    const loaded: StoredMessage[] = [];
    const names = await fsp.readdir(messagesDir);
    const committed = new Set(names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length)));
    for (const name of names) {
      // A temporary file, or the .eml of a send killed before its .json (never answered).
      if (name.includes('.tmp-') || (name.endsWith('.eml') && !committed.has(name.slice(0, -'.eml'.length)))) {
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
          tenantName: meta.tenant_name ?? null,
          raw,
          events: meta.events,
          outbox: meta.outbox ?? [],
          eventMail: meta.event_mail ?? null,
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
    if (existed) {
      this.persistConfigSets();
      this.forgetAssociations((arn) => arn.endsWith(`:configuration-set/${name}`));
    }
    return existed;
  }

  private persistConfigSets(): void {
    if (!this.dataDir) return;
    const file: ConfigSetsFile = { version: 1, configurationSets: this.listConfigSets() };
    this.writeSetting(path.join(this.dataDir, 'config-sets.json'), `${JSON.stringify(file, null, 2)}\n`);
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
    if (existed) {
      this.persistIdentities();
      const suffix = `:identity/${name.toLowerCase()}`;
      this.forgetAssociations((arn) => arn.toLowerCase().endsWith(suffix));
    }
    return existed;
  }

  // ---- tenants ----

  getTenant(name: string): SesTenant | undefined {
    return this.tenants.get(name);
  }

  /** Sorted by name. */
  listTenants(): SesTenant[] {
    return [...this.tenants.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Inserts or replaces a tenant and persists all of them. */
  putTenant(tenant: SesTenant): void {
    this.tenants.set(tenant.name, tenant);
    this.persistTenants();
  }

  deleteTenant(name: string): boolean {
    const existed = this.tenants.delete(name);
    if (existed) this.persistTenants();
    return existed;
  }

  /** A deleted resource leaves every tenant it was associated with (as in SES). */
  private forgetAssociations(matches: (arn: string) => boolean): void {
    let changed = false;
    for (const tenant of this.tenants.values()) {
      const kept = tenant.resources.filter((r) => !matches(r.arn));
      if (kept.length === tenant.resources.length) continue;
      this.tenants.set(tenant.name, { ...tenant, resources: kept });
      changed = true;
    }
    if (changed) this.persistTenants();
  }

  // ---- suppression lists (suppression-list.ts owns their shape) ----

  getSuppression(): SuppressionFile | undefined {
    return this.suppression;
  }

  /** Replaces the suppression state and persists it (awaited by settingsDurable, like other settings). */
  putSuppression(file: SuppressionFile): void {
    this.suppression = file;
    if (this.dataDir) this.writeSetting(path.join(this.dataDir, 'suppression.json'), `${JSON.stringify(file)}\n`);
  }

  private persistTenants(): void {
    if (!this.dataDir) return;
    const file: TenantsFile = { version: 1, tenants: this.listTenants() };
    this.writeSetting(path.join(this.dataDir, 'tenants.json'), `${JSON.stringify(file, null, 2)}\n`);
  }

  private persistIdentities(): void {
    if (!this.dataDir) return;
    const file: IdentitiesFile = { version: 1, identities: this.listIdentities() };
    this.writeSetting(path.join(this.dataDir, 'identities.json'), `${JSON.stringify(file, null, 2)}\n`);
  }

  private writeSetting(file: string, content: string): void {
    const write = this.writer.write(file, content);
    this.settingsWrites.set(file, write);
    // Forget it once settled (a failure is reported to the request that waits, not to later ones).
    const forget = (): void => {
      if (this.settingsWrites.get(file) === write) this.settingsWrites.delete(file);
    };
    write.then(forget, forget);
  }

  /** Resolves when every configuration set, identity and tenant change so far is on disk; rejects if a write failed. */
  async settingsDurable(): Promise<void> {
    if (this.settingsWrites.size > 0) await Promise.all([...this.settingsWrites.values()]);
  }

  // ---- messages ----

  /**
   * Adds an accepted message; with a data directory, resolves only once it (outbox included) is on
   * disk, and rejects (the message is not kept) if it could not be written.
   */
  async addMessage(input: Omit<StoredMessage, 'seq' | 'events'>): Promise<StoredMessage> {
    const message: StoredMessage = { ...input, seq: this.nextSeq++, events: [] };
    this.messages.push(message);
    this.byId.set(message.id, message);
    const dir = this.messagesDir;
    if (!dir) return message;
    try {
      // The .eml first: the .json is the commit record and must never refer to a partial .eml.
      await fsp.writeFile(path.join(dir, `${message.id}.eml`), message.raw);
      await this.writer.write(this.metaPath(dir, message.id), metaText(message));
    } catch (err) {
      this.byId.delete(message.id);
      const at = this.messages.indexOf(message);
      if (at >= 0) this.messages.splice(at, 1);
      await fsp.rm(path.join(dir, `${message.id}.eml`), { force: true }).catch(() => undefined);
      throw err;
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

  /** Messages that still owe events, oldest first. */
  messagesOwingEvents(): StoredMessage[] {
    return this.messages.filter((m) => m.outbox.some((e) => e.unpublished.length > 0));
  }

  /**
   * Records that an owed event reached `topic`; once it reached all its topics it counts as
   * published. Written without waiting: if the write is lost, the event is only published again.
   */
  markPublished(message: StoredMessage, entry: OutboxEntry, topic: string, at: Date): void {
    entry.unpublished = entry.unpublished.filter((t) => t !== topic);
    if (entry.unpublished.length === 0) {
      entry.publishedAt = at.toISOString();
      message.events.push({ type: entry.type, at: entry.publishedAt });
    }
    const dir = this.messagesDir;
    if (dir && this.byId.get(message.id) === message) this.writer.writeLater(this.metaPath(dir, message.id), metaText(message));
  }

  private metaPath(dir: string, id: string): string {
    return path.join(dir, `${id}.json`);
  }

  /** Waits until everything is on disk. */
  flush(): Promise<void> {
    return this.writer.flush();
  }
}

function metaText(m: StoredMessage): string {
  const meta: MessageMeta = {
    id: m.id,
    seq: m.seq,
    received_at: m.receivedAt,
    from: m.from,
    to: m.to,
    subject: m.subject,
    configuration_set: m.configurationSet,
    tags: m.tags,
    tenant_name: m.tenantName,
    events: m.events,
    outbox: m.outbox,
    event_mail: m.eventMail,
  };
  return `${JSON.stringify(meta)}\n`;
}
