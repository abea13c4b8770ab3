/**
 * What S3 checks on a request authenticated with query parameters (a SigV4 presigned URL), for the local
 * S3 (fauxqs, which checks none of it: ./s3-request-gate.ts runs this before fauxqs sees the request).
 * Sources:
 * - https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html: the parameters
 *   (X-Amz-Algorithm, -Credential, -Date, -Expires, -SignedHeaders, -Signature), X-Amz-Expires from 1 to
 *   604800 seconds (7 days), the canonical request with UNSIGNED-PAYLOAD as the payload hash, the
 *   signature over the string to sign with the key derived from the secret, date, region and service.
 * - https://docs.aws.amazon.com/AmazonS3/latest/userguide/using-presigned-url.html: a URL works until
 *   X-Amz-Date + X-Amz-Expires; one signed with temporary credentials stops when they expire (the local
 *   cloud's functions sign with its static keys: nothing to enforce here, see docs/local-cloud/s3.md).
 * - https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html: the XML error body (Code,
 *   Message, RequestId, HostId) and the codes: AccessDenied 403, SignatureDoesNotMatch 403,
 *   InvalidAccessKeyId 403, AuthorizationQueryParametersError 400.
 * The extra elements of an expired URL's body (X-Amz-Expires, Expires, ServerTime) and its message
 * "Request has expired" are what S3 answers (reported in aws/aws-sdk-php#1333 and versity/versitygw#2116),
 * as are the messages of AuthorizationQueryParametersError; AWS documents neither, so they are copied
 * from S3's answers. A URL whose X-Amz-Date is in the future is refused "Request is not yet valid"
 * (S3's answer, minio/minio#2638) with no tolerance: our choice, AWS documents none.
 *
 * The signature is recomputed with the SDK's own SigV4 signer (@smithy/signature-v4, the code that
 * signed the URL), over the request as received: method, raw path, query without X-Amz-Signature, and
 * the headers the URL names in X-Amz-SignedHeaders. A changed key, method, query parameter or signed
 * header (content-type of a presigned PUT) changes the signature: 403 SignatureDoesNotMatch.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { getSigningKey, SignatureV4 } from '@smithy/signature-v4';
import type { Checksum, HttpRequest, SourceData } from '@smithy/types';

/** The longest lifetime of a SigV4 presigned URL (sigv4-query-string-auth.html). */
export const MAX_PRESIGNED_URL_SECONDS = 604_800;

const ALGORITHM = 'AWS4-HMAC-SHA256';
const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
const REQUIRED = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Signature', 'X-Amz-Date', 'X-Amz-SignedHeaders', 'X-Amz-Expires'] as const;

/** A refusal as S3 answers it: the status and the elements of its XML `<Error>` after Code and Message. */
export interface S3Refusal {
  status: number;
  code: string;
  message: string;
  details: [string, string][];
}

export interface IncomingS3Request {
  method: string;
  /** Path and query exactly as received (before any rewriting). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface PresignedCheckOptions {
  now: Date;
  /** The region S3 runs in: a credential scoped to another is refused. */
  region: string;
  /** The secret of an access key, or undefined when S3 does not know the key. */
  secretOf(accessKeyId: string): string | undefined;
}

/** True when the request authenticates with query parameters (any SigV4 presign parameter present). */
export function isPresignedRequest(url: string): boolean {
  const query = url.indexOf('?');
  return query !== -1 && /[?&]X-Amz-(Algorithm|Credential|Signature)=/.test(url.slice(query));
}

/**
 * GetObject's response header overrides (https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html,
 * "Overriding response header values"): `response-<header>` query parameters become the answer's headers.
 * Only on a signed request (S3 refuses them on an anonymous one); the gate checks the signature first.
 */
const RESPONSE_OVERRIDES: Readonly<Record<string, string>> = {
  'response-content-type': 'content-type',
  'response-content-disposition': 'content-disposition',
  'response-content-language': 'content-language',
  'response-content-encoding': 'content-encoding',
  'response-cache-control': 'cache-control',
  'response-expires': 'expires',
};

/** The headers a presigned URL's response-* parameters set, as [name, value] pairs. */
export function responseOverrides(url: string): [string, string][] {
  const query = url.indexOf('?');
  if (query === -1) return [];
  const overrides: [string, string][] = [];
  for (const [key, value] of Object.entries(parseQuery(url.slice(query + 1)))) {
    const header = RESPONSE_OVERRIDES[key.toLowerCase()];
    if (header) overrides.push([header, Array.isArray(value) ? value[value.length - 1]! : value]);
  }
  return overrides;
}

const refusal = (status: number, code: string, message: string, details: [string, string][] = []): S3Refusal => ({
  status,
  code,
  message,
  details,
});
const queryError = (message: string) => refusal(400, 'AuthorizationQueryParametersError', message);

/** Query parameters as decoded values (`+` is not a space in a SigV4 canonical query); repeated keys keep every value. */
function parseQuery(rawQuery: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const part of rawQuery.split('&')) {
    if (!part) continue;
    const equals = part.indexOf('=');
    const key = decodeURIComponent(equals === -1 ? part : part.slice(0, equals));
    const value = equals === -1 ? '' : decodeURIComponent(part.slice(equals + 1));
    const existing = query[key];
    query[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return query;
}

/** `20260101T120000Z` (ISO 8601 basic, as X-Amz-Date carries it) as a Date, or undefined. */
function parseAmzDate(value: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return undefined;
  const date = new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const isoSeconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** node:crypto as the signer's SHA-256 (a hash, or an HMAC when constructed with a secret). */
class NodeSha256 implements Checksum {
  private hash;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', toBuffer(secret));
  }
  update(data: Uint8Array): void {
    this.hash.update(data);
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
  reset(): void {
    throw new Error('not used by the SigV4 signer');
  }
}

function toBuffer(data: SourceData): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}

/** The SDK's signer, opened up for verification: the canonical request and string to sign of a received request. */
class PresignedUrlVerifier extends SignatureV4 {
  constructor(
    private readonly credentials: { accessKeyId: string; secretAccessKey: string },
    private readonly scope: { shortDate: string; region: string; service: string },
  ) {
    // uriEscapePath false: S3's canonical URI is the path as sent, not encoded twice (the SDK signs S3 so).
    super({ credentials, region: scope.region, service: scope.service, sha256: NodeSha256, uriEscapePath: false });
  }

  async expectedSignature(request: HttpRequest, signedHeaders: Record<string, string>, payloadHash: string, longDate: string) {
    const { shortDate, region, service } = this.scope;
    const canonicalRequest = this.createCanonicalRequest(request, signedHeaders, payloadHash);
    const stringToSign = await this.createStringToSign(
      longDate,
      `${shortDate}/${region}/${service}/aws4_request`,
      canonicalRequest,
      ALGORITHM,
    );
    const key = await getSigningKey(NodeSha256, this.credentials, shortDate, region, service);
    const signature = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
    return { canonicalRequest, stringToSign, signature };
  }
}

function headerValue(headers: IncomingS3Request['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** The check S3 makes of a presigned request: null when it may proceed, else S3's refusal. */
export async function checkPresignedRequest(request: IncomingS3Request, options: PresignedCheckOptions): Promise<S3Refusal | null> {
  const parameters = readPresignParameters(request.url);
  if (isRefusal(parameters)) return parameters;
  const { algorithm, amzDate, expiresText } = parameters;
  if (algorithm !== ALGORITHM) return queryError(`X-Amz-Algorithm only supports "${ALGORITHM}"`);
  const signingDate = parseAmzDate(amzDate);
  if (!signingDate) return queryError("X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"");
  const expiresSeconds = readExpires(expiresText);
  if (typeof expiresSeconds !== 'number') return expiresSeconds;
  const scope = readCredentialScope(parameters.credential, amzDate, options.region);
  if (isRefusal(scope)) return scope;

  // Its lifetime, before its signature: an expired URL is refused so even when it was also altered (S3 does the same).
  const outOfLifetime = lifetimeRefusal({ signingDate, amzDate, expiresSeconds, expiresText }, options.now);
  if (outOfLifetime) return outOfLifetime;
  return signatureRefusal(request, parameters, scope, options);
}

/** The query parameters of query-string authentication (sigv4-query-string-auth.html), with the path they came with. */
interface PresignParameters {
  path: string;
  query: Record<string, string | string[]>;
  algorithm: string;
  credential: string;
  signatureProvided: string;
  amzDate: string;
  signedHeaderList: string;
  expiresText: string;
}

/** The credential's scope: <access key id>/<date>/<region>/<service>/aws4_request. */
interface CredentialScope {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
}

/** Whether a step's result is S3's refusal (its other results have no status). */
function isRefusal<T extends object>(result: T | S3Refusal): result is S3Refusal {
  return 'status' in result;
}

/** A query parameter given once, else undefined (missing or repeated). */
function singleValue(query: Record<string, string | string[]>, name: string): string | undefined {
  return typeof query[name] === 'string' ? (query[name] as string) : undefined;
}

/** The path and the presign parameters of a URL, each given once; else AuthorizationQueryParametersError. */
function readPresignParameters(url: string): PresignParameters | S3Refusal {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  let query: Record<string, string | string[]>;
  try {
    query = parseQuery(queryStart === -1 ? '' : url.slice(queryStart + 1));
  } catch {
    return queryError('The query string is not URL-encoded');
  }
  if (REQUIRED.some((name) => singleValue(query, name) === undefined)) {
    return queryError(
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    );
  }
  const [algorithm, credential, signatureProvided, amzDate, signedHeaderList, expiresText] = REQUIRED.map(
    (name) => singleValue(query, name)!,
  ) as [string, string, string, string, string, string];
  return { path, query, algorithm, credential, signatureProvided, amzDate, signedHeaderList, expiresText };
}

/** X-Amz-Expires in seconds, from 1 to MAX_PRESIGNED_URL_SECONDS; else AuthorizationQueryParametersError. */
function readExpires(expiresText: string): number | S3Refusal {
  if (!/^-?\d+$/.test(expiresText)) return queryError('X-Amz-Expires should be a number');
  const expiresSeconds = Number(expiresText);
  if (expiresSeconds < 0) return queryError('X-Amz-Expires must be non-negative');
  // AWS documents 1 to 604,800; its answer to 0 is not documented: refused as the bound it breaks (our text).
  if (expiresSeconds < 1) return queryError('X-Amz-Expires must be at least 1 (second)');
  if (expiresSeconds > MAX_PRESIGNED_URL_SECONDS)
    return queryError(`X-Amz-Expires must be less than a week (in seconds) that is; ${MAX_PRESIGNED_URL_SECONDS}`);
  return expiresSeconds;
}

/** X-Amz-Credential's scope, of X-Amz-Date's day, S3's region and service s3; else AuthorizationQueryParametersError. */
function readCredentialScope(credential: string, amzDate: string, region: string): CredentialScope | S3Refusal {
  const scopeParts = credential.split('/');
  if (scopeParts.length !== 5 || scopeParts[4] !== 'aws4_request')
    return queryError(
      'Error parsing the X-Amz-Credential parameter; the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".',
    );
  const [accessKeyId, scopeDate, scopeRegion, scopeService] = scopeParts as [string, string, string, string, string];
  if (scopeDate !== amzDate.slice(0, 8)) return queryError('Invalid credential date. Date is not the same as X-Amz-Date.');
  if (scopeRegion !== region)
    return queryError(`Error parsing the X-Amz-Credential parameter; the region '${scopeRegion}' is wrong; expecting '${region}'`);
  if (scopeService !== 's3')
    return queryError(`Error parsing the X-Amz-Credential parameter; incorrect service "${scopeService}". This endpoint belongs to "s3".`);
  return { accessKeyId, date: scopeDate, region: scopeRegion, service: scopeService };
}

/** AccessDenied when `now` is before X-Amz-Date (not yet valid) or after X-Amz-Date + X-Amz-Expires (expired); else null. */
function lifetimeRefusal(
  lifetime: { signingDate: Date; amzDate: string; expiresSeconds: number; expiresText: string },
  now: Date,
): S3Refusal | null {
  const { signingDate, amzDate, expiresSeconds, expiresText } = lifetime;
  const expiresAt = new Date(signingDate.getTime() + expiresSeconds * 1000);
  if (signingDate.getTime() > now.getTime()) {
    return refusal(403, 'AccessDenied', 'Request is not yet valid', [
      ['X-Amz-Date', amzDate],
      ['Expires', isoSeconds(expiresAt)],
      ['ServerTime', isoSeconds(now)],
    ]);
  }
  if (now.getTime() > expiresAt.getTime()) {
    return refusal(403, 'AccessDenied', 'Request has expired', [
      ['X-Amz-Expires', expiresText],
      ['Expires', isoSeconds(expiresAt)],
      ['ServerTime', isoSeconds(now)],
    ]);
  }
  return null;
}

/** InvalidAccessKeyId for an unknown key, SignatureDoesNotMatch when the signature recomputed differs; else null. */
async function signatureRefusal(
  request: IncomingS3Request,
  parameters: PresignParameters,
  scope: CredentialScope,
  options: PresignedCheckOptions,
): Promise<S3Refusal | null> {
  const { accessKeyId } = scope;
  const { path, query, signatureProvided, amzDate } = parameters;
  const secretAccessKey = options.secretOf(accessKeyId);
  if (secretAccessKey === undefined)
    return refusal(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', [
      ['AWSAccessKeyId', accessKeyId],
    ]);
  const signedHeaders: Record<string, string> = {};
  for (const name of parameters.signedHeaderList.split(';')) {
    // A signed header the request lacks signs as empty: the signatures then differ.
    signedHeaders[name] = (headerValue(request.headers, name) ?? '').replace(/\s+/g, ' ').trim();
  }
  const payloadHash = singleValue(query, 'X-Amz-Content-Sha256') ?? UNSIGNED_PAYLOAD;
  const verifier = new PresignedUrlVerifier(
    { accessKeyId, secretAccessKey },
    { shortDate: scope.date, region: scope.region, service: scope.service },
  );
  const expected = await verifier.expectedSignature(
    { method: request.method, protocol: 'http:', hostname: '', path, query, headers: signedHeaders } as HttpRequest,
    signedHeaders,
    payloadHash,
    amzDate,
  );
  const provided = Buffer.from(signatureProvided);
  const computed = Buffer.from(expected.signature);
  if (provided.length === computed.length && timingSafeEqual(provided, computed)) return null;
  return refusal(
    403,
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    [
      ['AWSAccessKeyId', accessKeyId],
      ['StringToSign', expected.stringToSign],
      ['SignatureProvided', signatureProvided],
      ['CanonicalRequest', expected.canonicalRequest],
    ],
  );
}
