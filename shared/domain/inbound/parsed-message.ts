/**
 * A received message as the inbound worker's parser reads it (shared/adapters/received-mail/parse-message.ts,
 * mailparser), and as the inbound use case (shared/usecases/inbound/process-inbound.ts) takes it.
 */
import type { ReceivedHeaderFields } from './received-email';

export interface ParsedAttachment {
  filename: string | null;
  content_type: string;
  size: number;
  /** The Content-ID as written, angle brackets included (`<logo@example.com>`), as mailparser's contentId. */
  content_id: string | null;
  content_disposition: 'attachment' | 'inline';
  content: Buffer;
}

export interface ParsedInbound extends ReceivedHeaderFields {
  html: string | null;
  text: string | null;
  /** Every header field of the top header block, in order (name as written, value unfolded and trimmed, 8-bit bytes as UTF-8). */
  headers: { name: string; value: string }[];
  attachments: ParsedAttachment[];
  attachment_count: number;
  parse_error: string | null;
}
