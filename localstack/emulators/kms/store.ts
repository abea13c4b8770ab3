/**
 * State of the emulator: keys (with their key material) and aliases, in memory, optionally persisted as
 * one file `<dataDir>/kms.json`. The state is a handful of records, so every change rewrites the whole
 * file atomically (temporary file + rename); the file holds key material, so it is created readable by
 * its owner only (0600, in a 0700 directory when the emulator creates it), like the local secrets key file.
 *
 * `persist()` resolves once every change made before the call is on disk (callers waiting together share
 * one write), so a mutating API call answers only after its change is durable: a key whose ciphertexts
 * were handed out is never lost to a crash. No fsync: the target is a killed process, not a power loss.
 * Without a dataDir nothing touches the disk.
 */
import { chmod, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AliasRecord, KeyRecord } from './types';

export const STATE_FILE = 'kms.json';

interface StateFileContent {
  version: 1;
  keys: KeyRecord[];
  aliases: AliasRecord[];
}

export class KmsStore {
  private readonly keys = new Map<string, KeyRecord>();
  private readonly aliases = new Map<string, AliasRecord>();
  private readonly file: string | undefined;
  private writing: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;

  constructor(private readonly dataDir: string | undefined) {
    this.file = dataDir === undefined ? undefined : path.join(dataDir, STATE_FILE);
  }

  async load(): Promise<void> {
    if (!this.dataDir || !this.file) return;
    await mkdir(this.dataDir, { recursive: true, mode: 0o700 });
    // Temporary files of a process killed while writing: never renamed, never needed.
    for (const name of await readdir(this.dataDir)) {
      if (name.startsWith(`${STATE_FILE}.`) && name.endsWith('.tmp')) await rm(path.join(this.dataDir, name), { force: true });
    }
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const state = JSON.parse(text) as StateFileContent;
    if (state.version !== 1) throw new Error(`${this.file}: unsupported version ${String(state.version)}`);
    for (const key of state.keys) this.keys.set(key.KeyId, key);
    for (const alias of state.aliases) this.aliases.set(alias.AliasName, alias);
  }

  key(keyId: string): KeyRecord | undefined {
    return this.keys.get(keyId);
  }

  putKey(key: KeyRecord): void {
    this.keys.set(key.KeyId, key);
  }

  alias(aliasName: string): AliasRecord | undefined {
    return this.aliases.get(aliasName);
  }

  putAlias(alias: AliasRecord): void {
    this.aliases.set(alias.AliasName, alias);
  }

  /** Removes an alias; false when there was none of that name. */
  deleteAlias(aliasName: string): boolean {
    return this.aliases.delete(aliasName);
  }

  /** All aliases, sorted by name (a stable order for paging). */
  allAliases(): AliasRecord[] {
    return [...this.aliases.values()].sort((a, b) => (a.AliasName < b.AliasName ? -1 : a.AliasName > b.AliasName ? 1 : 0));
  }

  keyCount(): number {
    return this.keys.size;
  }

  /** Resolves once the state as it is now (or newer) is on disk. */
  persist(): Promise<void> {
    if (!this.file) return Promise.resolve();
    if (this.queued) return this.queued;
    const next = this.writing
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined; // changes made from now on need another write
        return this.writeNow();
      });
    this.queued = next;
    this.writing = next;
    return next;
  }

  /** Waits for the writes already asked for. */
  async flush(): Promise<void> {
    await this.writing.catch(() => undefined);
  }

  private async writeNow(): Promise<void> {
    const file = this.file!;
    const content: StateFileContent = { version: 1, keys: [...this.keys.values()], aliases: [...this.aliases.values()] };
    const tmp = `${file}.${process.pid}.tmp`;
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(tmp, JSON.stringify(content), { mode: 0o600 });
    await chmod(tmp, 0o600); // writeFile's mode applies only when it creates the file
    await rename(tmp, file);
  }
}
