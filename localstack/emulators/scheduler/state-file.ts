/**
 * On-disk form of the emulator's state: a snapshot `<dataDir>/schedules.json`, written atomically
 * (temp file + rename), plus a journal `<dataDir>/schedules.journal` of changes made since the
 * snapshot (one JSON line each). Appending a line costs the size of the change, not of the whole state;
 * the snapshot is rewritten when the journal grows large and when the emulator stops.
 *
 * Every change carries a sequence number and the snapshot records the last one it includes, so a
 * crash between writing a snapshot and removing the journal cannot replay old changes over newer state.
 * A half-written last journal line (crash during append) is ignored. After replaying a journal the
 * store writes a fresh snapshot at once, so appends never follow a torn line.
 *
 * Durability target: SIGKILL of the process (group) at any moment. An append or rename the process
 * made survives it in the page cache, so there is no fsync (a power loss may lose the last changes).
 */
import { appendFile, mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GroupRecord, ScheduleRecord } from './types';

export interface Snapshot {
  version: 1;
  /** Sequence number of the last change the snapshot includes. */
  seq: number;
  groups: GroupRecord[];
  schedules: ScheduleRecord[];
}

export type Change =
  | { seq: number; op: 'putSchedule'; schedule: ScheduleRecord }
  | { seq: number; op: 'deleteSchedule'; group: string; name: string }
  | { seq: number; op: 'putGroup'; group: GroupRecord }
  | { seq: number; op: 'deleteGroup'; name: string };

export interface LoadedState {
  snapshot: Snapshot | undefined;
  /** Journal changes newer than the snapshot, in order. */
  changes: Change[];
  /** Lines currently in the journal file. */
  journalLines: number;
}

export class StateFile {
  readonly snapshotPath: string;
  readonly journalPath: string;

  constructor(readonly dir: string) {
    this.snapshotPath = path.join(dir, 'schedules.json');
    this.journalPath = path.join(dir, 'schedules.journal');
  }

  async load(): Promise<LoadedState> {
    await mkdir(this.dir, { recursive: true });
    // Temporary snapshots of a process killed while writing one: never renamed, never needed.
    for (const name of await readdir(this.dir)) {
      if (name.startsWith(`${path.basename(this.snapshotPath)}.`) && name.endsWith('.tmp'))
        await rm(path.join(this.dir, name), { force: true });
    }
    const snapText = await readIfExists(this.snapshotPath);
    let snapshot: Snapshot | undefined;
    if (snapText !== undefined) {
      snapshot = JSON.parse(snapText) as Snapshot;
      if (snapshot.version !== 1) throw new Error(`${this.snapshotPath}: unsupported version ${String(snapshot.version)}`);
    }
    const lines = ((await readIfExists(this.journalPath)) ?? '').split('\n').filter((l) => l.trim() !== '');
    const after = snapshot?.seq ?? 0;
    const changes: Change[] = [];
    lines.forEach((line, i) => {
      let change: Change;
      try {
        change = JSON.parse(line) as Change;
      } catch (err) {
        if (i === lines.length - 1) return; // torn final append
        throw new Error(`${this.journalPath}: line ${i + 1} is not JSON (${String(err)})`);
      }
      if (change.seq > after) changes.push(change);
    });
    return { snapshot, changes, journalLines: lines.length };
  }

  async append(changes: Change[]): Promise<void> {
    const text = changes.map((c) => `${JSON.stringify(c)}\n`).join('');
    await this.inDir(() => appendFile(this.journalPath, text));
  }

  /** Writes the snapshot atomically, then drops the journal it makes redundant. */
  async writeSnapshot(snapshot: Snapshot): Promise<void> {
    const tmp = `${this.snapshotPath}.${process.pid}.tmp`;
    await this.inDir(() => writeFile(tmp, JSON.stringify(snapshot)));
    await rename(tmp, this.snapshotPath);
    try {
      await unlink(this.journalPath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  /** Runs a write; if the data directory has disappeared meanwhile, re-creates it and tries once more. */
  private async inDir(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await mkdir(this.dir, { recursive: true });
      await write();
    }
  }
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
