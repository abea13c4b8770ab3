/**
 * Whether a report's record is the service's own sending (`ours`) or someone else sending as the domain
 * (`others`: the "who else sends as you" of the figures). Pure. A record is ours when its auth_results
 * show, passing:
 *
 * - a DKIM signature with `d=` the domain and `s=` the domain's selector (SES signs the domain's mail with
 *   our key and selector: Bring Your Own DKIM), or
 * - SPF for the service's MAIL FROM: `rp.<domain>` (the return path every domain gets), or an
 *   `amazonses.com` name (SES's own MAIL FROM, for mail sent before the return path was published).
 *
 * Anything else (the domain's own mail servers, a CRM signing with its own selector, a spoofer) is
 * `others`. The selector is the domain's current one, so the test is made when the report is stored.
 */
import { RETURN_PATH_LABEL } from '../domains/records';
import type { ReportRecord } from './report-schema';

export const SOURCE_GROUPS = ['ours', 'others'] as const;
export type SourceGroup = (typeof SOURCE_GROUPS)[number];

export interface OurSending {
  /** The domain (lower case). */
  domain: string;
  /** Its DKIM selector. */
  selector: string;
}

const SES_MAIL_FROM = 'amazonses.com';

const sameName = (a: string, b: string) => a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');
const under = (name: string, parent: string) => sameName(name, parent) || name.toLowerCase().replace(/\.$/, '').endsWith(`.${parent}`);

export function groupOf(record: Pick<ReportRecord, 'auth_results'>, ours: OurSending): SourceGroup {
  const { dkim, spf } = record.auth_results;
  const ourDkim = dkim.some(
    (result) =>
      result.result === 'pass' &&
      sameName(result.domain, ours.domain) &&
      result.selector !== undefined &&
      result.selector.toLowerCase() === ours.selector.toLowerCase(),
  );
  const ourSpf = spf.some(
    (result) =>
      result.result === 'pass' && (sameName(result.domain, `${RETURN_PATH_LABEL}.${ours.domain}`) || under(result.domain, SES_MAIL_FROM)),
  );
  return ourDkim || ourSpf ? 'ours' : 'others';
}
