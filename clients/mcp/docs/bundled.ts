/**
 * The docs resources from the generated module (./bundled.generated.ts, brotli + base64): what the HTTP
 * server serves, on Lambda and on the local cloud alike. Unpacked on first read of each page.
 */
import { brotliDecompressSync } from 'node:zlib';
import { PACKED_DOCS } from './bundled.generated';
import type { DocsSource } from './catalogue';

const unpacked = new Map<string, string>();

export function unpackDoc(packed: string): string {
  return brotliDecompressSync(Buffer.from(packed, 'base64')).toString('utf8');
}

export const bundledDocs: DocsSource = async (name) => {
  const packed = PACKED_DOCS[name];
  if (packed === undefined) throw new Error(`No bundled doc named ${name}`);
  let text = unpacked.get(name);
  if (text === undefined) {
    text = unpackDoc(packed);
    unpacked.set(name, text);
  }
  return text;
};
