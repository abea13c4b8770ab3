/** The send use case (POST /emails, and every other door): sendEmail and what its callers name. The core is ./send-email.ts. */
export { sendEmail, type SendCaller, type SendDeps, type SendOptions, type SendResult } from './send-email';
export { INLINE_BODY_LIMIT } from './content-keys';
