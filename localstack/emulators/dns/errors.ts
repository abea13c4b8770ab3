/**
 * Errors of the control API. A DnsRecordError is the caller's fault (a 400 when the local cloud's
 * HTTP server exposes the API); its message says what is wrong and where.
 */
export class DnsRecordError extends Error {
  readonly status = 400;
  constructor(message: string) {
    super(message);
    this.name = 'DnsRecordError';
  }
}

/** A packet that does not parse as a DNS message. */
export class DnsFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DnsFormatError';
  }
}
