/** The send queue's message: `{email_id}`, plus `schedule_version` when a schedule fired it. */
export interface SendMessage {
  email_id: string;
  schedule_version?: number;
}

/** Throws on anything else (the record fails and, after the queue's retries, lands in the DLQ). */
export function parseSendMessage(body: string): SendMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new Error('send message is not JSON');
  }
  const message = parsed as Partial<SendMessage> | null;
  if (typeof message?.email_id !== 'string' || !/^msg_[0-9A-Z]{26}$/.test(message.email_id)) throw new Error('send message without a valid email_id');
  if (message.schedule_version !== undefined && !Number.isInteger(message.schedule_version)) throw new Error('send message with an invalid schedule_version');
  return { email_id: message.email_id, ...(message.schedule_version === undefined ? {} : { schedule_version: message.schedule_version }) };
}
