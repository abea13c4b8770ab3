/**
 * The domain page's DMARC section (docs/deliverability.md, "DMARC aggregate reports"): the last 30 UTC
 * days of the domain's reports (GET /domains/{id}/dmarc's figures: shared/usecases/dmarc/figures.ts) as
 * messages per day and the DMARC pass rate of ours against others, the same numbers in a table, and the
 * top other senders. Everything from a report (reporter names, IPs) is interpolated, so escaped.
 */
import type { DmarcFigures } from '#shared/usecases/dmarc/figures';
import { barChart, rateChart } from '../dashboard/pages/charts';
import { html, table, type Html } from '../dashboard/pages/layout';

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const rateOf = (part: { messages: number; dmarc_pass: number }) => (part.messages === 0 ? null : part.dmarc_pass / part.messages);

/** `turnOn`: the form that turns reading on (the page's), shown while reports are not read. */
export function dmarcSection(figures: DmarcFigures, turnOn: Html): Html {
  const heading = html`<h2 id="dmarc-heading">DMARC reports</h2>`;
  if (figures.report_address === null && figures.reports === 0) {
    return html`<section aria-labelledby="dmarc-heading">${heading}<p class="hint">Aggregate reports are not read for this domain. Read them at <code>dmarc@</code> its receiving subdomain (receiving must be on), then publish the DMARC record with its <code>rua=</code> (DNS records above); or choose another address with <code>PATCH /domains/{id}</code> <code>{"dmarc_reports": {"enabled": true, "address": "..."}}</code>.</p>${turnOn}</section>`;
  }
  const labels = figures.days.map((day) => day.day.slice(5));
  const address = figures.report_address
    ? html`Reports are read at <code>${figures.report_address}</code>.`
    : html`Reports are no longer read (figures already stored still count).`;
  return html`<section aria-labelledby="dmarc-heading">${heading}
<p>${address} ${figures.since} to ${figures.until} (UTC): ${figures.reports} report${figures.reports === 1 ? '' : 's'} from ${figures.reporters.length} reporter${figures.reporters.length === 1 ? '' : 's'}; ${figures.totals.messages} messages, ${percent(figures.totals.pass_rate)} passed DMARC. Ours (sent by the service): ${figures.ours.messages}, ${percent(figures.ours.pass_rate)} passed; others: ${figures.others.messages}, ${percent(figures.others.pass_rate)} passed.</p>
<div class="charts"><figure>${barChart({
    id: 'chart-dmarc-messages',
    title: 'Messages reported per day',
    desc: figures.days.map((day) => `${day.day}: ${day.messages} (ours ${day.ours.messages}, others ${day.others.messages})`).join('; '),
    labels,
    values: figures.days.map((day) => day.messages),
  })}<figcaption>Messages reported per day</figcaption></figure>
<figure>${rateChart({
    id: 'chart-dmarc-pass',
    title: 'DMARC pass rate per day, ours and others',
    desc: figures.days
      .map(
        (day) =>
          `${day.day}: ours ${day.ours.messages ? percent(day.ours.dmarc_pass / day.ours.messages) : 'none'}, others ${day.others.messages ? percent(day.others.dmarc_pass / day.others.messages) : 'none'}`,
      )
      .join('; '),
    labels,
    series: [
      { name: 'Ours', values: figures.days.map((day) => rateOf(day.ours)) },
      { name: 'Others', values: figures.days.map((day) => rateOf(day.others)) },
    ],
  })}<figcaption>DMARC pass rate per day: ours, others</figcaption></figure></div>
<details><summary>Data table</summary>${table(
    'DMARC reports per UTC day',
    ['Day', 'Messages', 'Passed', 'Ours', 'Ours passed', 'Others', 'Others passed'],
    figures.days.map(
      (day) =>
        html`<tr><th scope="row">${day.day}</th><td class="num">${day.messages}</td><td class="num">${day.dmarc_pass}</td><td class="num">${day.ours.messages}</td><td class="num">${day.ours.dmarc_pass}</td><td class="num">${day.others.messages}</td><td class="num">${day.others.dmarc_pass}</td></tr>`,
    ),
  )}</details>
${table(
  'Top other senders (who else sends as this domain), most messages first',
  ['Source IP', 'Messages', 'DMARC passed', 'SPF aligned', 'DKIM aligned', 'Quarantined', 'Rejected', 'Reported by'],
  figures.sources.map(
    (source) =>
      html`<tr><td><code>${source.source_ip}</code></td><td class="num">${source.messages}</td><td class="num">${source.dmarc_pass} (${percent(source.pass_rate)})</td><td class="num">${source.spf_aligned_pass}</td><td class="num">${source.dkim_aligned_pass}</td><td class="num">${source.disposition.quarantine}</td><td class="num">${source.disposition.reject}</td><td>${source.reporters.join(', ')}</td></tr>`,
  ),
  'No other senders reported: only the service sends as this domain.',
)}</section>`;
}
