/**
 * The Message-ID recipients see on a message SES sent: SES replaces the message's own with its SendEmail
 * MessageId at `email.amazonses.com` in us-east-1 and at `<region>.amazonses.com` elsewhere
 * (https://docs.aws.amazon.com/ses/latest/dg/header-fields.html: "If you provide a Message-ID header,
 * Amazon SES overrides the header with its own value"; the domain: https://github.com/drewblas/aws-ses/pull/68).
 * Replies thread against it (In-Reply-To / References), so the email record and email.sent expose it.
 */
export function sesMessageIdOf(providerMessageId: string, region: string): string {
  return `<${providerMessageId}@${region === 'us-east-1' ? 'email' : region}.amazonses.com>`;
}
