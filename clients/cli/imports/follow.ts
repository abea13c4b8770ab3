/**
 * Runs an import to its end the way docs/imports.md tells a client to: POST /migrations, then the same
 * body with `cursor: next_cursor` while `has_more`, waiting `retry_after_seconds` when the provider
 * rate-limited it. A continuation answered 409 (another request holds the cursor), 429 or 502/503
 * (the cursor stays good) is tried again after its Retry-After (a few times for 5xx).
 */
import { ApiError, type ApiClient } from '../../api/client';
import type { Migration } from './report';

export interface FollowHooks {
  /** Called with every answer, in order. */
  onStep(migration: Migration): void;
  sleep(ms: number): Promise<void>;
}

const SERVER_RETRIES = 3;

export async function followImport(
  client: ApiClient,
  body: Record<string, unknown>,
  firstCursor: string | undefined,
  hooks: FollowHooks,
): Promise<{ migration: Migration; answers: Migration[] }> {
  const answers: Migration[] = [];
  let cursor = firstCursor;
  let serverFailures = 0;
  for (;;) {
    let migration: Migration;
    try {
      ({ migration } = await client.post<{ migration: Migration }>('/migrations', cursor ? { ...body, cursor } : body));
    } catch (error) {
      const retryable =
        error instanceof ApiError &&
        cursor !== undefined &&
        (error.status === 409 ||
          error.status === 429 ||
          ((error.status === 502 || error.status === 503) && serverFailures++ < SERVER_RETRIES));
      if (!retryable) throw error;
      await hooks.sleep(((error as ApiError).retryAfterSeconds ?? 2) * 1000);
      continue;
    }
    serverFailures = 0;
    answers.push(migration);
    hooks.onStep(migration);
    if (!migration.has_more || !migration.next_cursor) return { migration, answers };
    cursor = migration.next_cursor;
    if (migration.retry_after_seconds) await hooks.sleep(migration.retry_after_seconds * 1000);
  }
}
