/**
 * A queue message's body: its JSON, with every UTF-16 unit SQS does not take written as a JSON escape.
 *
 * SQS takes only #x9, #xA, #xD, #x20-#xD7FF, #xE000-#xFFFD and #x10000-#x10FFFF in a message ("Any characters
 * not included in this list will be rejected": https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/API_SendMessage.html),
 * so a U+FFFE or U+FFFF in a subject, a tag or a name (strangers' content) made the whole message refused
 * (InvalidMessageContents) and its sender's work fail on every retry, to the DLQ. Escaped, the body is the
 * same JSON: `JSON.parse` gives the same value back. Characters beyond the BMP are escaped too (as their
 * two surrogates): SQS takes them, but the local cloud's SQS (fauxqs) tests the body one UTF-16 unit at a
 * time and refuses them, and an escape costs 10 bytes where the character took 4.
 */
const NOT_TAKEN = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD]/g;

export function sqsMessageBody(message: unknown): string {
  return JSON.stringify(message).replace(NOT_TAKEN, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
