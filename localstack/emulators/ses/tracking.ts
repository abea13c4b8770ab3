/**
 * SES's open and click tracking, applied to the delivered bytes when the message's configuration set has
 * an enabled event destination subscribing OPEN or CLICK, whatever the content type (Simple or Raw):
 *
 * - https://docs.aws.amazon.com/ses/latest/dg/configure-custom-open-click-domains.html: "When you use event
 *   publishing to capture open and click events, Amazon SES makes minor changes to the emails you send
 *   ... SES adds a 1 pixel by 1 pixel transparent GIF image in each email" and "To capture link click
 *   events, SES replaces the links in your emails with links to a server operated by SES";
 * - https://docs.aws.amazon.com/ses/latest/dg/faqs-metrics.html: the only ways to leave the pixel out are
 *   no configuration set or one that does not publish opens (no exception for raw MIME); tracking applies
 *   to the HTML parts only; `{{ses:openTracker}}` places the pixel; a link with the `ses:no-track`
 *   attribute is not rewritten; links go to `<prefix>.r.<region>.awstrack.me` unless the set names a
 *   custom redirect domain (TrackingOptions.CustomRedirectDomain).
 *
 * The URLs' path shapes follow what SES sends (`/I0/...` for the pixel, `/L0/<url>/1/<message id>/...`
 * for a link); nothing serves them locally (an emulator limit).
 */
import { rewriteHtmlParts } from './html-parts';
import type { ConfigurationSet } from './types';

export interface TrackingPlan {
  open: boolean;
  click: boolean;
  host: string;
}

/** What SES tracks for a message sent with this configuration set (null: nothing). */
export function trackingPlan(configSet: ConfigurationSet | undefined, region: string): TrackingPlan | null {
  if (!configSet) return null;
  const subscribed = (type: 'OPEN' | 'CLICK'): boolean =>
    configSet.eventDestinations.some((d) => d.Enabled && d.MatchingEventTypes.includes(type));
  const open = subscribed('OPEN');
  const click = subscribed('CLICK');
  if (!open && !click) return null;
  const tracking = configSet.options.TrackingOptions as { CustomRedirectDomain?: unknown } | undefined;
  const custom =
    typeof tracking?.CustomRedirectDomain === 'string' && tracking.CustomRedirectDomain ? tracking.CustomRedirectDomain : undefined;
  return { open, click, host: custom ?? `local.r.${region}.awstrack.me` };
}

const LINK = /<(a|area)\b([^>]*?)\bhref\s*=\s*(["'])(https?:\/\/[^"']*)\3([^>]*)>/gi;
const OPEN_TRACKER = '{{ses:openTracker}}';

function trackHtml(html: string, plan: TrackingPlan, messageId: string): string {
  let out = html;
  if (plan.click) {
    let n = 0;
    out = out.replace(LINK, (tag: string, name: string, before: string, quote: string, url: string, after: string) => {
      if (/\bses:no-track\b/i.test(before + after)) return tag;
      n += 1;
      const original = url.replace(/&amp;/g, '&');
      return `<${name}${before}href=${quote}https://${plan.host}/L0/${encodeURIComponent(original)}/1/${messageId}/${n}${quote}${after}>`;
    });
  }
  if (plan.open) {
    const pixel = `<img alt="" src="https://${plan.host}/I0/${messageId}/open" style="display: none; width: 1px; height: 1px;">`;
    if (out.includes(OPEN_TRACKER)) out = out.split(OPEN_TRACKER).join(pixel);
    else {
      const close = out.search(/<\/body\s*>/i);
      out = close >= 0 ? `${out.slice(0, close)}${pixel}${out.slice(close)}` : `${out}${pixel}`;
    }
  }
  return out;
}

/** The message with SES's pixel and link rewriting in its HTML parts (unchanged when the plan is null). */
export function applyTracking(raw: Buffer, plan: TrackingPlan | null, messageId: string): Buffer {
  if (!plan) return raw;
  return rewriteHtmlParts(raw, (html) => trackHtml(html, plan, messageId));
}
