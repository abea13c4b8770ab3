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
 * How long a raw message may stay stored and not queued before the reconciler deletes it: far beyond
 * what storing (40 MB), the checks (10 s) and queueing take; a listener slower than this answers 451.
 */
export const UNQUEUED_RAW_BOUND_MS = 15 * 60_000;
