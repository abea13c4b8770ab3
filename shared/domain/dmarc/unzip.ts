/**
 * The report XML of a zip (Google, and others, send `<reporter>!<domain>!<begin>!<end>.zip`), with
 * fflate, in two passes so that nothing is inflated before the archive is known to be harmless:
 *
 * 1. The central directory is read (fflate's `unzipSync` with a filter that takes nothing): at most
 *    MAX_ZIP_ENTRIES entries (`zip_too_many_entries`), every name safe (`zip_unsafe_name`: `..`, an
 *    absolute path, a backslash, a control character; nothing is ever written to disk, but an archive
 *    built like that is no receiver's report), the first `.xml` entry chosen (`zip_no_report` without one),
 *    stored or deflate only (`zip_unsupported_compression`), its declared size within MAX_XML_BYTES
 *    (`decompressed_too_large`).
 * 2. That entry alone is inflated by fflate's streaming `Unzip`, the archive pushed 16 KiB at a time so
 *    one push inflates at most ~16 MiB (deflate's 1:1032), its bytes counted as they come: past the
 *    declared size it is `zip_size_mismatch` (a lying header), and short of it at the end too.
 */
import { Unzip, UnzipInflate, unzipSync, type UnzipFileInfo } from 'fflate';
import { MAX_XML_BYTES, MAX_ZIP_ENTRIES } from './limits';
import { ReportRefused, refused } from './refusal';

const SLICE_BYTES = 16 * 1024;
const STORED = 0;
const DEFLATE = 8;

/** A name a receiver could have written: relative, forward slashes, no `..`, no control characters. */
export function isSafeEntryName(name: string): boolean {
  if (name.length === 0 || name.length > 255) return false;
  if (name.startsWith('/') || name.includes('\\') || /^[a-z]:/i.test(name)) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return false;
  return !name.split('/').some((part) => part === '..');
}

/** Every entry of the central directory, checked; nothing inflated. */
function listEntries(data: Uint8Array): UnzipFileInfo[] {
  const entries: UnzipFileInfo[] = [];
  try {
    unzipSync(data, {
      filter(file) {
        if (entries.length >= MAX_ZIP_ENTRIES) throw refused('zip_too_many_entries', `more than ${MAX_ZIP_ENTRIES} entries`);
        if (!isSafeEntryName(file.name)) throw refused('zip_unsafe_name', `entry name ${JSON.stringify(file.name.slice(0, 80))}`);
        entries.push(file);
        return false;
      },
    });
  } catch (error) {
    if (error instanceof ReportRefused) throw error;
    throw refused('zip_invalid', (error as Error)?.message ?? 'unreadable zip');
  }
  return entries;
}

/** The bytes of entry `name`, inflated within `declared` bytes (and never past MAX_XML_BYTES). */
function inflateEntry(data: Uint8Array, name: string, declared: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let failure: ReportRefused | null = null;
  let done = false;
  let found = false;
  const unzip = new Unzip((file) => {
    if (found || file.name !== name) return; // other entries are never started
    found = true;
    file.ondata = (error, chunk, final) => {
      if (failure || done) return;
      if (error) {
        failure = refused('zip_invalid', error.message);
        return;
      }
      total += chunk.length;
      if (total > declared) {
        failure = refused('zip_size_mismatch', `entry ${name} inflates past its declared ${declared} bytes`);
        return;
      }
      chunks.push(chunk);
      if (final) done = true;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let offset = 0; offset < data.length && !failure && !done; offset += SLICE_BYTES) {
      unzip.push(data.subarray(offset, offset + SLICE_BYTES), offset + SLICE_BYTES >= data.length);
    }
  } catch (error) {
    if (!failure && !done) failure = refused('zip_invalid', (error as Error)?.message ?? 'unreadable zip');
  }
  if (failure) throw failure;
  if (!done) throw refused('zip_invalid', found ? `entry ${name} ends early` : `entry ${name} not found where the directory says`);
  if (total !== declared) throw refused('zip_size_mismatch', `entry ${name} has ${total} bytes, its headers declare ${declared}`);
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

export function xmlBytesOfZip(data: Uint8Array): Uint8Array {
  const entries = listEntries(data);
  const entry = entries.find((file) => /\.xml$/i.test(file.name));
  if (!entry) throw refused('zip_no_report', `no .xml entry among ${entries.length}`);
  if (entry.compression !== STORED && entry.compression !== DEFLATE)
    throw refused('zip_unsupported_compression', `method ${entry.compression}`);
  if (entry.originalSize > MAX_XML_BYTES)
    throw refused('decompressed_too_large', `entry ${entry.name} declares ${entry.originalSize} bytes`);
  return inflateEntry(data, entry.name, entry.originalSize);
}
