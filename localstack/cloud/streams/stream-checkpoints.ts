/**
 * Where each stream mapping got to, as Lambda keeps it for an event source mapping: per poller and shard,
 * the last sequence number processed (handled, filtered out or given up on) and whether a closed shard was
 * read to its end, in DATA_DIR/stream-checkpoints.json (written atomically after every batch), so a
 * restart resumes instead of replaying the stream. Without a file (in-memory cloud) they live in memory.
 * docs/local-cloud/streams.md, "Checkpoints"; the poller: ./stream-poller.ts.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';

export interface ShardCheckpoint {
  /** Last sequence number processed (handled, filtered out or given up on). */
  sequenceNumber?: string;
  /** The shard is closed and was read to its end. */
  done?: boolean;
}

interface CheckpointFile {
  version: 1;
  pollers: Record<string, { streamArn: string; shards: Record<string, ShardCheckpoint> }>;
}

/**
 * Per poller and shard, where processing got to. With a file, every change is written (temporary
 * file + rename: a crash leaves the old or the new file, never half of one) before the shard goes on.
 */
export class StreamCheckpoints {
  private state: CheckpointFile = { version: 1, pollers: {} };
  private writing: Promise<void> | null = null;
  private dirty = false;

  constructor(
    private readonly file?: string,
    log: (message: string) => void = () => undefined,
  ) {
    if (!file || !existsSync(file)) return;
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as CheckpointFile;
      if (parsed.version === 1 && parsed.pollers) this.state = parsed;
    } catch (error) {
      // Unreadable: keep it aside for inspection and start over (the stream is read again from its start).
      const aside = `${file}.corrupt-${Date.now()}`;
      renameSync(file, aside);
      log(`stream checkpoints: ${file} is unreadable (${(error as Error).message}); moved to ${aside}`);
    }
  }

  /** True when this poller has state for this stream (a restart, not a new mapping). */
  has(poller: string, streamArn: string): boolean {
    return this.state.pollers[poller]?.streamArn === streamArn;
  }

  shards(poller: string, streamArn: string): Record<string, ShardCheckpoint> {
    const entry = this.state.pollers[poller];
    // Another stream (the table's stream was re-created): its positions mean nothing here.
    if (!entry || entry.streamArn !== streamArn) this.state.pollers[poller] = { streamArn, shards: {} };
    return this.state.pollers[poller]!.shards;
  }

  async save(poller: string, streamArn: string, shardId: string, checkpoint: ShardCheckpoint): Promise<void> {
    this.shards(poller, streamArn)[shardId] = checkpoint;
    await this.persist();
  }

  /** Forgets shards the stream no longer lists (trimmed after 24 h). */
  async retain(poller: string, streamArn: string, shardIds: Set<string>): Promise<void> {
    const shards = this.shards(poller, streamArn);
    const gone = Object.keys(shards).filter((id) => !shardIds.has(id));
    if (gone.length === 0) return;
    for (const id of gone) delete shards[id];
    await this.persist();
  }

  /** Resolves once the current state is on disk. Concurrent callers share writes; one write at a time. */
  async persist(): Promise<void> {
    if (!this.file) return;
    this.dirty = true;
    while (this.dirty) {
      if (this.writing) {
        await this.writing.catch(() => undefined);
        continue;
      }
      this.dirty = false;
      const file = this.file;
      const data = JSON.stringify(this.state, null, 1);
      this.writing = (async () => {
        await writeFile(`${file}.tmp`, data);
        await rename(`${file}.tmp`, file);
      })().finally(() => {
        this.writing = null;
      });
      await this.writing;
    }
  }
}
