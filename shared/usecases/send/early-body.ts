/**
 * A large body's PUT beside the send's read, not after it (docs/reference/send-path.md, "Bodies"): a send
 * whose body goes to the blob store (over INLINE_BODY_LIMIT, and an SMTP relay message over INLINE_MIME_LIMIT) took three round
 * trips one after the other (the read, the PUT, the write); with the PUT started when the send starts, two.
 *
 * The object's key needs the email's id (made before the read: ./send-email.ts) and the account's retention
 * class (its key prefix: docs/retention.md), which the read returns. So the PUT goes under the class this
 * process saw for the caller last time (a resolved caller's own account: exact). When the read says
 * otherwise (the account's retention changed), the body is put again under the right class and the early
 * object deleted; a send refused after the PUT (401, 403, 422, 429, an idempotent replay) deletes its object
 * before it answers. Nothing is started for the first send of a key in a process, a template send (its body
 * is rendered from the read), or a body that stays in the item.
 */
import { effectiveRetention, objectRetentionDays, retentionKeyPrefix } from '../../domain/accounts/retention';
import type { Account } from '../../domain/accounts/account';
import type { ParsedSendRequest } from '../../domain/emails/send-request';
import { BoundedMap } from '../../lib/bounded-map';
import { logWarn } from '../../lib/log';
import type { BlobStore } from '../../ports/blobs';
import { bodyBlobKey, keptInItem, mimeBlobKey } from './content-keys';
import type { SendCaller } from './send-caller';

/** A PUT started early: where it went, and how it ended (never rejects). */
export interface EarlyUpload {
  blobKey: string;
  /** What was put: the accept step uses the object only for the same content (the same string, or the same raw message). */
  content: string | Buffer;
  /** True once stored; false when the PUT failed (the accept step puts it again). */
  stored: Promise<boolean>;
  /** Whether the accept step used the object (else it is deleted). */
  used: boolean;
}

/** The accounts' email retention as this process last saw them, by caller (10,000 keys). */
export class EarlyBodies {
  private readonly keepDays = new BoundedMap<string, number>(10_000);

  constructor(private readonly blobs: Pick<BlobStore, 'put' | 'delete'>) {}

  /** The retention days the caller's account keeps emails, as last seen; undefined for a key not seen yet. */
  private daysOf(caller: SendCaller): number | undefined {
    if ('principal' in caller) return emailDays(caller.principal.account);
    return this.keepDays.get(caller.apiKeyHash);
  }

  /** What the read returned for the caller's account: the next send of the key guesses from it. */
  remember(caller: SendCaller, account: Pick<Account, 'plan' | 'retention'>): void {
    if (!('principal' in caller)) this.keepDays.set(caller.apiKeyHash, emailDays(account));
  }

  /**
   * Starts the body's (or the raw message's) PUT when the class can be guessed and the content goes to the
   * blob store; undefined when nothing was started.
   */
  start(
    caller: SendCaller,
    emailId: string,
    parsed: ParsedSendRequest,
    when: { now: Date; at: Date | null },
    mime?: { raw: Buffer },
  ): EarlyUpload | undefined {
    if (!mime && parsed.template !== undefined) return undefined;
    const days = this.daysOf(caller);
    if (days === undefined) return undefined;
    // Serialised once, as the accept step would: a body kept in the item is not put.
    const content = mime ? mime.raw : JSON.stringify({ html: parsed.html, text: parsed.text });
    if (keptInItem(mime ?? { json: content as string })) return undefined;
    const keyPrefix = retentionKeyPrefix(objectRetentionDays(days, when.at ?? when.now, when.now));
    const blobKey = mime ? `${keyPrefix}${mimeBlobKey(emailId)}` : `${keyPrefix}${bodyBlobKey(emailId)}`;
    const stored = this.blobs.put(blobKey, content, mime ? 'message/rfc822' : 'application/json').then(
      () => true,
      () => false,
    );
    return { blobKey, content, stored, used: false };
  }

  /** Deletes an early object the send did not use (refused, or put under another class); waits for its PUT first. */
  async discard(upload: EarlyUpload | undefined): Promise<void> {
    if (!upload || upload.used || !(await upload.stored)) return;
    await this.blobs.delete(upload.blobKey).catch((error: unknown) => {
      // Left for the class's lifecycle rule to expire.
      logWarn('An early body object could not be deleted', { key: upload.blobKey, error: String(error) });
    });
  }
}

const emailDays = (account: Pick<Account, 'plan' | 'retention'>): number => effectiveRetention(account.plan, account.retention).emails_days;
