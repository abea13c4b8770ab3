/**
 * The MX listener's fixed limits (./mx-server.ts), in a module of their own so its handlers and the
 * tests read the same numbers the listener enforces.
 */

/** Largest message accepted: SES's and most providers' 40 MB. */
export const MX_MAX_MESSAGE_BYTES = 40 * 1024 * 1024;
/** Largest header block of the message (mailparser's own limit per MIME node). */
export const MX_MAX_HEADER_BYTES = 1024 * 1024;
/** Recipients per transaction (RFC 5321 asks servers to take at least 100). */
export const MX_MAX_RECIPIENTS = 100;
/**
 * How long a stored raw message may stay unclaimed by an inbound worker before the reconciler deletes it:
 * past the longest a queue message lives (14 days in the DLQ), so only a message the queue never took (its
 * listener died between storing and queueing it) is deleted, never one a worker may still record. What the
 * listener sees fail it deletes at once, before its 451.
 */
export const UNCLAIMED_RAW_BOUND_MS = 15 * 24 * 3600_000;
