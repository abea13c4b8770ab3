/**
 * One rule for what the providers call tags, categories and metadata, in every compatible door
 * (docs/compat.md, "Tags, categories and metadata"):
 *
 * - a provider's **label** (SendGrid's `categories`, Postmark's `Tag`, Mailgun's `o:tag`) becomes the tag
 *   `{name: <kind>, value: <label>}` (`category` for SendGrid, `tag` for Postmark and Mailgun); several labels,
 *   several tags of that name;
 * - a provider's **key-value pair** (SendGrid's `custom_args`, Postmark's `Metadata`, Mailgun's `v:`) becomes
 *   the tag `{name: key, value}`;
 * - a tag's name and value are 1-256 of `A-Za-z0-9_-` here: each run of other characters becomes one `_` (so
 *   `Password Reset` is kept as `Password_Reset`, and code written for the provider keeps working; the table
 *   of each door says so), and an empty one is `_`;
 * - at most MAX_TAGS in all: more is the provider's own 400 (a tag dropped would be lost silently).
 *
 * Pure.
 */
import { MAX_TAGS } from '../../domain/emails/send-request';

export interface Tag {
  name: string;
  value: string;
}

const TAG_PART_MAX = 256;

/** A label, key or value as one of our tag parts: A-Za-z0-9_- only (each run of others becomes `_`), 1-256 characters. */
export function tagPart(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, TAG_PART_MAX) || '_';
}

/** Labels (categories, Tag, o:tag) as tags named `kind`; empty labels dropped. */
export function labelTags(kind: string, labels: readonly string[]): Tag[] {
  return labels.filter((label) => label.trim() !== '').map((label) => ({ name: kind, value: tagPart(label) }));
}

/** Key-value pairs (custom_args, Metadata, v:) as tags. */
export function pairTags(pairs: Readonly<Record<string, string>>): Tag[] {
  return Object.entries(pairs).map(([name, value]) => ({ name: tagPart(name), value: tagPart(value) }));
}

/** How many tags over our limit these are (0 when they fit). */
export function tagsOverLimit(tags: readonly Tag[]): number {
  return Math.max(0, tags.length - MAX_TAGS);
}

export { MAX_TAGS };
