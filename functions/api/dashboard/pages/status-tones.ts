/**
 * The tone of a status badge (docs/dashboard.md, "Accessibility": the word is the information, colour only
 * repeats it): good, bad, or waiting. One list for the server's pages (./layout.ts `badge`) and the page
 * script's badges (./script.ts), so a badge drawn by either looks the same.
 */
export const GOOD_STATUSES: readonly string[] = [
  'delivered',
  'verified',
  'valid',
  'succeeded',
  'active',
  'completed',
  'published',
  'created',
  'updated',
  'unchanged',
  'enabled',
  'imported',
  'opened',
  'clicked',
];
export const BAD_STATUSES: readonly string[] = [
  'bounced',
  'failed',
  'complained',
  'invalid',
  'not_found',
  'paused',
  'cancelled',
  'disabled',
  'error',
  'suppressed',
  'temporary_failure',
  'high',
];

type Tone = 'good' | 'bad' | 'wait';

export function toneOf(status: string): Tone {
  return GOOD_STATUSES.includes(status) ? 'good' : BAD_STATUSES.includes(status) ? 'bad' : 'wait';
}
