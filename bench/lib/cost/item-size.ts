/**
 * An item's size as DynamoDB counts it for capacity units (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):
 * each attribute's name (UTF-8 bytes) plus its value: a string its UTF-8 bytes, a number about one byte per
 * two significant digits plus one, binary its bytes, a boolean or null one byte, a list or map 3 bytes plus
 * each element (and one byte of overhead per element; a map's element also its name), a set its elements.
 * Items in DynamoDB's wire form (a stream record's images).
 */
export type WireValue = {
  S?: string;
  N?: string;
  B?: unknown;
  BOOL?: boolean;
  NULL?: boolean;
  L?: WireValue[];
  M?: Record<string, WireValue>;
  SS?: string[];
  NS?: string[];
  BS?: unknown[];
};

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

function numberSize(text: string): number {
  const digits = text
    .replace(/^[-+]/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

function binarySize(value: unknown): number {
  if (typeof value === 'string') return Buffer.from(value, 'base64').byteLength;
  if (value instanceof Uint8Array) return value.byteLength;
  return 0;
}

export function valueSize(value: WireValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return binarySize(value.B);
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.L) return 3 + value.L.reduce((sum, element) => sum + 1 + valueSize(element), 0);
  if (value.M) return 3 + Object.entries(value.M).reduce((sum, [name, element]) => sum + 1 + utf8(name) + valueSize(element), 0);
  if (value.SS) return value.SS.reduce((sum, element) => sum + utf8(element), 0);
  if (value.NS) return value.NS.reduce((sum, element) => sum + numberSize(element), 0);
  if (value.BS) return value.BS.reduce((sum: number, element) => sum + binarySize(element), 0);
  return 0;
}

export function itemSize(item: Record<string, WireValue>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0);
}
