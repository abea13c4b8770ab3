/**
 * Records the emulator keeps. Field names follow the KMS API's (KeyMetadata, AliasListEntry) so a view is
 * a copy; dates are epoch milliseconds here and epoch seconds on the wire (AWS JSON 1.1 timestamps).
 */

export interface Tag {
  TagKey: string;
  TagValue: string;
}

export interface KeyRecord {
  /** A lower-case UUID, as KMS key ids are. */
  KeyId: string;
  Arn: string;
  CreationDate: number;
  Description: string;
  Enabled: boolean;
  /** The only usage and spec the emulator creates (symmetric encryption keys). */
  KeyUsage: 'ENCRYPT_DECRYPT';
  KeySpec: 'SYMMETRIC_DEFAULT';
  /** The key policy document, exactly as given (GetKeyPolicy returns it unchanged). */
  Policy: string;
  Tags: Tag[];
  RotationEnabled: boolean;
  RotationPeriodInDays?: number;
  /** When automatic rotation was (last) enabled: the next rotation date counts from it. */
  RotationEnabledAt?: number;
  /** The 256-bit AES key material, base64. Never leaves the emulator except in its data file. */
  Material: string;
}

export interface AliasRecord {
  /** `alias/<name>`. */
  AliasName: string;
  /** The key id (UUID) of the target key. */
  TargetKeyId: string;
  CreationDate: number;
  LastUpdatedDate: number;
}

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
