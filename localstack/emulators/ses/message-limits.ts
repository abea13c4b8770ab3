/** SESv2's limits on one message, which SendEmail enforces and the request reader sizes its body by. */

/** SESv2 limit on envelope recipients per message. */
export const MAX_RECIPIENTS = 50;
/** SESv2 limit on the size of a message (raw MIME). */
export const MAX_MESSAGE_BYTES = 40 * 1024 * 1024;
