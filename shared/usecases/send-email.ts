/** The send use case (POST /emails, and every other door): the send core in ./send. */
export { sendEmail, type SendCaller, type SendDeps, type SendOptions, type SendResult } from './send/accept';
export { INLINE_BODY_LIMIT } from './send/content';
export { getEmail } from './get-email';
