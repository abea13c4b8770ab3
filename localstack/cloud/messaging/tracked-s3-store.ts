/**
 * fauxqs's S3 store, extended (a subclass handed to `buildApp({ stores })`, ./fauxqs-classes.ts): each
 * object put or deleted is told to the messaging tap after fauxqs's own method ran (PutObject and
 * CopyObject go through putObject, DeleteObjects through deleteObject), and the incomplete multipart
 * uploads are listed for the lifecycle sweep (../s3/s3-lifecycle-sweep.ts): fauxqs has no
 * ListMultipartUploads. (fauxqs's emptyBucket, clearObjects and purgeAll drop uploads behind this list's back;
 * the local cloud calls none of them.)
 */
import type { S3Object, S3Store } from './fauxqs-classes';
import type { MessagingTap } from './messaging-tap';

export interface IncompleteUpload {
  uploadId: string;
  bucket: string;
  key: string;
  initiated: Date;
}

export interface TrackedS3Store extends S3Store {
  /** The multipart uploads begun and neither completed nor aborted, oldest first. */
  incompleteUploads(): IncompleteUpload[];
}

export function createTrackedS3Store(Base: new () => S3Store, tap: MessagingTap): TrackedS3Store {
  class Tracked extends Base implements TrackedS3Store {
    private readonly uploads = new Map<string, IncompleteUpload>();

    override putObject(...args: Parameters<S3Store['putObject']>): S3Object {
      const object = super.putObject(...args);
      tap.objectPut(args[0], args[1], object);
      return object;
    }

    override deleteObject(bucket: string, key: string): void {
      super.deleteObject(bucket, key);
      tap.objectDeleted(bucket, key);
    }

    override createMultipartUpload(...args: Parameters<S3Store['createMultipartUpload']>): string {
      const uploadId = super.createMultipartUpload(...args);
      this.uploads.set(uploadId, { uploadId, bucket: args[0], key: args[1], initiated: new Date() });
      return uploadId;
    }

    override completeMultipartUpload(...args: Parameters<S3Store['completeMultipartUpload']>): S3Object {
      const object = super.completeMultipartUpload(...args);
      const upload = this.uploads.get(args[0]);
      this.uploads.delete(args[0]);
      // The assembled object goes into the bucket without putObject.
      if (upload) tap.objectPut(upload.bucket, upload.key, object);
      return object;
    }

    override abortMultipartUpload(uploadId: string): void {
      super.abortMultipartUpload(uploadId);
      this.uploads.delete(uploadId);
    }

    incompleteUploads(): IncompleteUpload[] {
      return [...this.uploads.values()];
    }
  }
  return new Tracked();
}
