/**
 * The local S3's check of presigned URLs (localstack/cloud/s3/s3-presigned-url.ts), on URLs the SDK's own
 * presigner makes, at exact instants: S3's lifetime rule (X-Amz-Date + X-Amz-Expires), its 7-day bound
 * and its signature. The same check against the running local S3 is test/integration/s3-presigned-urls.test.ts.
 */
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  checkPresignedRequest,
  isPresignedRequest,
  MAX_PRESIGNED_URL_SECONDS,
  responseOverrides,
  type IncomingS3Request,
} from '#localstack/cloud/s3/s3-presigned-url';
import { s3ErrorXml } from '#localstack/cloud/s3/s3-request-gate';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const s3 = new S3Client({ region: 'us-east-1', credentials, endpoint: 'http://127.0.0.1:4566', forcePathStyle: true });
const signedAt = new Date('2026-03-01T10:00:00Z');
const options = (now: Date) => ({ now, region: 'us-east-1', secretOf: (key: string) => (key === 'local' ? 'local' : undefined) });

/** The request a client sends with the URL: its path and query as they are, its Host. */
function requestOf(url: string, method = 'GET', headers: Record<string, string> = {}): IncomingS3Request {
  const parsed = new URL(url);
  return { method, url: parsed.pathname + parsed.search, headers: { host: parsed.host, ...headers } };
}

const presignGet = (key: string, expiresIn: number, signingDate = signedAt) =>
  getSignedUrl(s3, new GetObjectCommand({ Bucket: 'mail', Key: key }), { expiresIn, signingDate });
const at = (seconds: number) => new Date(signedAt.getTime() + seconds * 1000);

describe('presigned URL lifetime', () => {
  it('works from X-Amz-Date until X-Amz-Date + X-Amz-Expires, and is refused AccessDenied "Request has expired" one second later', async () => {
    const url = await presignGet('inbound/a b+c.eml', 60);
    expect(isPresignedRequest(requestOf(url).url)).toBe(true);
    expect(await checkPresignedRequest(requestOf(url), options(at(0)))).toBeNull();
    expect(await checkPresignedRequest(requestOf(url), options(at(60)))).toBeNull();
    const refused = await checkPresignedRequest(requestOf(url), options(at(61)));
    expect(refused).toEqual({
      status: 403,
      code: 'AccessDenied',
      message: 'Request has expired',
      details: [
        ['X-Amz-Expires', '60'],
        ['Expires', '2026-03-01T10:01:00Z'],
        ['ServerTime', '2026-03-01T10:01:01Z'],
      ],
    });
    expect(s3ErrorXml(refused!, 'REQ1')).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<Error><Code>AccessDenied<\/Code><Message>Request has expired<\/Message><X-Amz-Expires>60<\/X-Amz-Expires><Expires>2026-03-01T10:01:00Z<\/Expires><ServerTime>2026-03-01T10:01:01Z<\/ServerTime><RequestId>REQ1<\/RequestId><HostId>[^<]+<\/HostId><\/Error>$/,
    );
  });

  it('is refused "Request is not yet valid" before its X-Amz-Date', async () => {
    const url = await presignGet('k', 60);
    expect(await checkPresignedRequest(requestOf(url), options(at(-1)))).toMatchObject({
      status: 403,
      code: 'AccessDenied',
      message: 'Request is not yet valid',
    });
  });

  it('takes X-Amz-Expires up to 604800 s (7 days); 604801 is refused 400 AuthorizationQueryParametersError', async () => {
    const url = await presignGet('k', MAX_PRESIGNED_URL_SECONDS);
    expect(await checkPresignedRequest(requestOf(url), options(at(MAX_PRESIGNED_URL_SECONDS)))).toBeNull();
    // The SDK refuses to presign longer, so the URL is edited (a bound checked before the signature, as S3 does).
    const longer = url.replace('X-Amz-Expires=604800', 'X-Amz-Expires=604801');
    expect(await checkPresignedRequest(requestOf(longer), options(at(1)))).toEqual({
      status: 400,
      code: 'AuthorizationQueryParametersError',
      message: 'X-Amz-Expires must be less than a week (in seconds) that is; 604800',
      details: [],
    });
    expect(await checkPresignedRequest(requestOf(url.replace('X-Amz-Expires=604800', 'X-Amz-Expires=-5')), options(at(1)))).toMatchObject({
      status: 400,
      message: 'X-Amz-Expires must be non-negative',
    });
    expect(await checkPresignedRequest(requestOf(url.replace('X-Amz-Expires=604800', 'X-Amz-Expires=0')), options(at(0)))).toMatchObject({
      status: 400,
      message: 'X-Amz-Expires must be at least 1 (second)',
    });
  });

  it('refuses a URL without one of the six SigV4 parameters', async () => {
    const url = await presignGet('k', 60);
    const withoutDate = url.replace(/X-Amz-Date=[^&]+&/, '');
    expect(await checkPresignedRequest(requestOf(withoutDate), options(at(1)))).toMatchObject({
      status: 400,
      code: 'AuthorizationQueryParametersError',
      message:
        'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    });
  });
});

describe('presigned URL signature', () => {
  it('refuses 403 SignatureDoesNotMatch a changed key, method or query parameter', async () => {
    const url = await presignGet('uploads/acc/att_1', 60);
    const refusedAs = async (request: IncomingS3Request) => (await checkPresignedRequest(request, options(at(1))))?.code;
    expect(await refusedAs(requestOf(url))).toBeUndefined();
    expect(await refusedAs(requestOf(url.replace('att_1', 'att_2')))).toBe('SignatureDoesNotMatch');
    expect(await refusedAs(requestOf(url, 'DELETE'))).toBe('SignatureDoesNotMatch');
    expect(await refusedAs(requestOf(`${url}&response-content-type=text%2Fhtml`))).toBe('SignatureDoesNotMatch');
    // A signature made with another secret.
    const other = await getSignedUrl(
      new S3Client({
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'guess' },
        endpoint: 'http://127.0.0.1:4566',
        forcePathStyle: true,
      }),
      new GetObjectCommand({ Bucket: 'mail', Key: 'uploads/acc/att_1' }),
      { expiresIn: 60, signingDate: signedAt },
    );
    const refused = await checkPresignedRequest(requestOf(other), options(at(1)));
    expect(refused).toMatchObject({
      status: 403,
      code: 'SignatureDoesNotMatch',
      message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    });
    expect(refused!.details.map(([name]) => name)).toEqual(['AWSAccessKeyId', 'StringToSign', 'SignatureProvided', 'CanonicalRequest']);
  });

  it('signs the headers the URL names: a presigned PUT sent with another Content-Type is refused', async () => {
    const url = await getSignedUrl(s3, new PutObjectCommand({ Bucket: 'mail', Key: 'uploads/acc/att_1', ContentType: 'application/pdf' }), {
      expiresIn: 900,
      signingDate: signedAt,
      signableHeaders: new Set(['content-type']),
    });
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-type;host');
    expect(await checkPresignedRequest(requestOf(url, 'PUT', { 'content-type': 'application/pdf' }), options(at(1)))).toBeNull();
    expect(await checkPresignedRequest(requestOf(url, 'PUT', { 'content-type': 'text/html' }), options(at(1)))).toMatchObject({
      code: 'SignatureDoesNotMatch',
    });
    expect(await checkPresignedRequest(requestOf(url, 'PUT'), options(at(1)))).toMatchObject({ code: 'SignatureDoesNotMatch' });
    // The host is signed too: the URL sent to another endpoint fails.
    expect(
      await checkPresignedRequest(
        {
          ...requestOf(url, 'PUT', { 'content-type': 'application/pdf' }),
          headers: { host: 'elsewhere:1', 'content-type': 'application/pdf' },
        },
        options(at(1)),
      ),
    ).toMatchObject({ code: 'SignatureDoesNotMatch' });
  });

  it('refuses an unknown access key and a credential scoped to another region or service', async () => {
    const url = await presignGet('k', 60);
    expect(
      await checkPresignedRequest(requestOf(url.replace('X-Amz-Credential=local', 'X-Amz-Credential=AKIDEXAMPLE')), options(at(1))),
    ).toEqual({
      status: 403,
      code: 'InvalidAccessKeyId',
      message: 'The AWS Access Key Id you provided does not exist in our records.',
      details: [['AWSAccessKeyId', 'AKIDEXAMPLE']],
    });
    expect(await checkPresignedRequest(requestOf(url.replace('%2Fus-east-1%2F', '%2Feu-west-1%2F')), options(at(1)))).toMatchObject({
      status: 400,
      code: 'AuthorizationQueryParametersError',
    });
    expect(await checkPresignedRequest(requestOf(url.replace('%2Fs3%2F', '%2Fsqs%2F')), options(at(1)))).toMatchObject({
      status: 400,
      code: 'AuthorizationQueryParametersError',
    });
  });

  it('leaves requests without query authentication to the rest of S3 (SDK calls sign an Authorization header)', () => {
    expect(isPresignedRequest('/')).toBe(false);
    expect(isPresignedRequest('/mail/inbound/x.eml')).toBe(false);
    expect(isPresignedRequest('/mail?list-type=2&prefix=X-Amz-Signature%3D')).toBe(false);
  });
});

describe('response header overrides', () => {
  it("a presigned GET's response-content-type and response-content-disposition become the answer's headers, decoded as signed", async () => {
    const disposition = `attachment; filename="a b+c.html"; filename*=UTF-8''a%20b%2Bc.html`;
    const url = await getSignedUrl(
      s3,
      new GetObjectCommand({
        Bucket: 'mail',
        Key: 'k',
        ResponseContentType: 'text/plain; charset=utf-8',
        ResponseContentDisposition: disposition,
        ResponseCacheControl: 'no-store',
      }),
      { expiresIn: 60, signingDate: signedAt },
    );
    expect(await checkPresignedRequest(requestOf(url), options(at(0)))).toBeNull();
    expect(Object.fromEntries(responseOverrides(requestOf(url).url))).toEqual({
      'content-type': 'text/plain; charset=utf-8',
      'content-disposition': disposition,
      'cache-control': 'no-store',
    });
  });

  it('a URL without them sets nothing', async () => {
    expect(responseOverrides(requestOf(await presignGet('k', 60)).url)).toEqual([]);
  });
});
