import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BlobInfo, BlobStore, PresignedPut } from '../../ports/blobs';

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** `bucket/key` for x-amz-copy-source: each key segment URL-encoded, the slashes kept. */
function copySource(bucket: string, key: string): string {
  return `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/** `attachment; filename="..."; filename*=UTF-8''...` (RFC 6266): an ASCII fallback and the exact name. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export class S3BlobStore implements BlobStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, body: string | Buffer, contentType: string): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async get(key: string): Promise<Buffer> {
    const result = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if (!result.Body) throw new Error(`Empty object s3://${this.bucket}/${key}`);
    return Buffer.from(await result.Body.transformToByteArray());
  }

  async head(key: string): Promise<BlobInfo | null> {
    try {
      const result = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        size: result.ContentLength ?? 0,
        ...(result.ContentType ? { contentType: result.ContentType } : {}),
        ...(result.ETag ? { etag: result.ETag } : {}),
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async copy(fromKey: string, toKey: string, options: { ifMatch?: string } = {}): Promise<void> {
    await this.s3.send(
      new CopyObjectCommand({
        Bucket: this.bucket,
        Key: toKey,
        CopySource: copySource(this.bucket, fromKey),
        ...(options.ifMatch ? { CopySourceIfMatch: options.ifMatch } : {}),
      }),
    );
  }

  async presignPut(key: string, options: { contentType: string; contentLength?: number; expiresInSeconds: number }): Promise<PresignedPut> {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ContentType: options.contentType,
      ...(options.contentLength === undefined ? {} : { ContentLength: options.contentLength }),
    });
    const url = await getSignedUrl(this.presigningClient(), command, {
      expiresIn: options.expiresInSeconds,
      // The presigner leaves content-type unsigned by default: sign it (and the length, when known) so
      // the stored object has the declared type and size.
      signableHeaders: new Set(options.contentLength === undefined ? ['content-type'] : ['content-type', 'content-length']),
    });
    return { url, headers: { 'Content-Type': options.contentType } };
  }

  async presignGet(key: string, options: { expiresInSeconds: number; downloadName: string; contentType: string }): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: contentDisposition(options.downloadName),
      ResponseContentType: options.contentType,
    });
    return getSignedUrl(this.presigningClient(), command, { expiresIn: options.expiresInSeconds });
  }

  /**
   * The client with request checksums only WHEN_REQUIRED. With the SDK's default (WHEN_SUPPORTED) a
   * presigned PutObject carries `x-amz-checksum-crc32=AAAAAA==`, the CRC32 of the EMPTY body it was
   * signed with, and S3 then refuses every real upload (aws/aws-sdk-js-v3#6994). getSignedUrl only
   * reads `config` and `middlewareStack`, so the same client is reused with that one setting changed.
   */
  private presigningClient(): S3Client {
    const config = { ...this.s3.config, requestChecksumCalculation: () => Promise.resolve('WHEN_REQUIRED' as const) };
    return { config, middlewareStack: this.s3.middlewareStack } as unknown as S3Client;
  }
}
