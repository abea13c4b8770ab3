/** Port: the blob store (S3 in AWS: shared/adapters/aws/s3-blob-store.ts): raw messages, bodies, attachments, exports. */

/** What the blob store knows about a stored object. */
export interface BlobInfo {
  size: number;
  contentType?: string;
  /** Opaque version tag (S3 ETag), for a copy of exactly this version. */
  etag?: string;
}

/** A URL a client can PUT one object to directly, and the headers it must send with it. */
export interface PresignedPut {
  url: string;
  headers: Record<string, string>;
}

export interface BlobStore {
  put(key: string, body: string | Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** The object's size and type, or null when there is no object at `key`. */
  head(key: string): Promise<BlobInfo | null>;
  /** Deletes the object at `key` (none there: nothing to do). */
  delete(key: string): Promise<void>;
  /** Server-side copy; with `ifMatch`, only while the source still has that etag (throws otherwise). */
  copy(fromKey: string, toKey: string, options?: { ifMatch?: string }): Promise<void>;
  /**
   * A presigned PUT for `key`, valid `expiresInSeconds`: the content type is signed (the client sends
   * exactly that Content-Type), and so is the length when given (S3 refuses a body of another size).
   */
  presignPut(key: string, options: { contentType: string; contentLength?: number; expiresInSeconds: number }): Promise<PresignedPut>;
  /**
   * A presigned GET of `key`, valid `expiresInSeconds`: always a download, saved under `downloadName`
   * (Content-Disposition: attachment) and served as `contentType`, whatever the object was stored with
   * (S3's response-content-* overrides): the bucket's origin never renders what a link points at.
   */
  presignGet(key: string, options: { expiresInSeconds: number; downloadName: string; contentType: string }): Promise<string>;
}
