/**
 * State of the emulator: schedule groups and schedules, in memory, optionally persisted under a
 * dataDir (snapshot + journal, see state-file.ts). `persist()` resolves once every change made before
 * the call is on disk (concurrent callers share one write), so an API call can answer only after its
 * change is durable. Without a dataDir nothing touches the disk.
 */
import { StateFile, type Change, type Snapshot } from './state-file';
import { DEFAULT_GROUP, scheduleKey, type GroupRecord, type ScheduleRecord } from './types';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type ChangeBody = DistributiveOmit<Change, 'seq'>;

/** The journal is folded into a new snapshot once it has this many lines and more than twice the records. */
const MIN_LINES_BEFORE_COMPACTION = 1000;

export class SchedulerStore {
  private readonly schedules = new Map<string, ScheduleRecord>();
  private readonly groups = new Map<string, GroupRecord>();
  private readonly file: StateFile | undefined;
  private writing: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;
  /** Sequence number of the last change. */
  private seq = 0;
  /** Changes not yet written. */
  private pending: Change[] = [];
  private journalLines = 0;
  /**
   * A journal append failed part-way (disk full...): the journal may end in a partial line, and an
   * append after it would make that a corrupt line in the middle (which stops the next start). The
   * next write is therefore a snapshot, which replaces the journal.
   */
  private snapshotNext = false;

  constructor(
    dataDir: string | undefined,
    private readonly arnPrefix: string,
  ) {
    this.file = dataDir === undefined ? undefined : new StateFile(dataDir);
  }

  groupArn(name: string): string {
    return `${this.arnPrefix}:schedule-group/${name}`;
  }

  scheduleArn(group: string, name: string): string {
    return `${this.arnPrefix}:schedule/${group}/${name}`;
  }

  /** Loads the saved state if there is one; makes sure the default group exists. */
  async load(now: number): Promise<void> {
    if (this.file) {
      const { snapshot, changes, journalLines } = await this.file.load();
      if (snapshot) {
        for (const g of snapshot.groups) this.groups.set(g.Name, g);
        for (const s of snapshot.schedules) this.schedules.set(scheduleKey(s.GroupName, s.Name), s);
        this.seq = snapshot.seq;
      }
      for (const change of changes) {
        this.apply(change);
        this.seq = Math.max(this.seq, change.seq);
      }
      this.journalLines = journalLines;
    }
    if (!this.groups.has(DEFAULT_GROUP)) {
      this.putGroup({ Name: DEFAULT_GROUP, Arn: this.groupArn(DEFAULT_GROUP), CreationDate: now, LastModificationDate: now, Tags: [] });
    }
    // Fold a replayed journal (which may end in a torn line) into a clean snapshot before appending to it.
    if (this.journalLines > 0) await this.flush();
  }

  /** Applies a change to the maps (used for live changes and for journal replay). */
  private apply(change: ChangeBody): void {
    switch (change.op) {
      case 'putSchedule':
        this.schedules.set(scheduleKey(change.schedule.GroupName, change.schedule.Name), change.schedule);
        break;
      case 'deleteSchedule':
        this.schedules.delete(scheduleKey(change.group, change.name));
        break;
      case 'putGroup':
        this.groups.set(change.group.Name, change.group);
        break;
      case 'deleteGroup':
        this.groups.delete(change.name);
        for (const [key, s] of this.schedules) if (s.GroupName === change.name) this.schedules.delete(key);
        break;
    }
  }

  private change(change: ChangeBody): void {
    this.apply(change);
    if (this.file) {
      this.seq += 1;
      this.pending.push({ ...change, seq: this.seq } as Change);
    }
  }

  // --- schedules ---

  getSchedule(group: string, name: string): ScheduleRecord | undefined {
    return this.schedules.get(scheduleKey(group, name));
  }

  putSchedule(record: ScheduleRecord): void {
    this.change({ op: 'putSchedule', schedule: record });
  }

  deleteSchedule(group: string, name: string): boolean {
    if (!this.schedules.has(scheduleKey(group, name))) return false;
    this.change({ op: 'deleteSchedule', group, name });
    return true;
  }

  /** Schedules sorted by group, then name (the order of list pages). */
  sortedSchedules(): ScheduleRecord[] {
    return [...this.schedules.values()].sort((a, b) => compare(a.GroupName, b.GroupName) || compare(a.Name, b.Name));
  }

  allSchedules(): IterableIterator<ScheduleRecord> {
    return this.schedules.values();
  }

  scheduleCount(): number {
    return this.schedules.size;
  }

  // --- groups ---

  getGroup(name: string): GroupRecord | undefined {
    return this.groups.get(name);
  }

  groupByArn(arn: string): GroupRecord | undefined {
    for (const g of this.groups.values()) if (g.Arn === arn) return g;
    return undefined;
  }

  putGroup(group: GroupRecord): void {
    this.change({ op: 'putGroup', group });
  }

  /** Deletes a group and every schedule in it. */
  deleteGroup(name: string): void {
    this.change({ op: 'deleteGroup', name });
  }

  sortedGroups(): GroupRecord[] {
    return [...this.groups.values()].sort((a, b) => compare(a.Name, b.Name));
  }

  // --- persistence ---

  /** Resolves when every change made so far is on disk. No-op in memory mode. */
  persist(): Promise<void> {
    if (!this.file) return Promise.resolve();
    // A write that has not started yet will include these changes too.
    if (this.queued) return this.queued;
    const run = this.enqueue(() => this.writePending());
    this.queued = run;
    return run;
  }

  /** Writes a fresh snapshot and drops the journal (on stop). No-op in memory mode. */
  flush(): Promise<void> {
    if (!this.file) return Promise.resolve();
    return this.enqueue(() => this.writeSnapshot());
  }

  /** Runs writes one at a time, in call order. */
  private enqueue(write: () => Promise<void>): Promise<void> {
    const run: Promise<void> = this.writing
      .catch(() => undefined)
      .then(() => {
        if (this.queued === run) this.queued = undefined;
        return write();
      });
    this.writing = run;
    return run;
  }

  private async writePending(): Promise<void> {
    if (this.pending.length === 0) return;
    const records = this.schedules.size + this.groups.size;
    if (this.snapshotNext || this.journalLines + this.pending.length > Math.max(MIN_LINES_BEFORE_COMPACTION, 2 * records)) {
      await this.writeSnapshot();
      return;
    }
    const batch = this.pending;
    this.pending = [];
    try {
      await (this.file as StateFile).append(batch);
    } catch (err) {
      this.pending = batch.concat(this.pending);
      this.snapshotNext = true;
      throw err;
    }
    this.journalLines += batch.length;
  }

  private async writeSnapshot(): Promise<void> {
    const snapshot: Snapshot = { version: 1, seq: this.seq, groups: [...this.groups.values()], schedules: [...this.schedules.values()] };
    const dropped = this.pending;
    this.pending = [];
    try {
      await (this.file as StateFile).writeSnapshot(snapshot);
    } catch (err) {
      this.pending = dropped.concat(this.pending);
      throw err;
    }
    this.journalLines = 0;
    this.snapshotNext = false;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
