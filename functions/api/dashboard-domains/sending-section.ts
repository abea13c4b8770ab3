/**
 * The domains list's Sending section (docs/deliverability.md, "Account stats"): the account's last 30 UTC days
 * (GET /account/stats: shared/usecases/account/account-stats.ts): sent, bounce and complaint rates, bounces per
 * day by category as a chart, and the counts of each category, with the data table behind the chart.
 */
import { BOUNCE_CATEGORIES, BOUNCE_CATEGORY_LABELS } from '#shared/domain/bounces/bounce-category';
import type { AccountStats } from '#shared/domain/reputation/account-stats';
import { barChart, rateChart } from '../dashboard/pages/charts';
import { html, table, type Html } from '../dashboard/pages/layout';

const percent = (share: number) => `${(share * 100).toFixed(2)}%`;

export function sendingSection(stats: AccountStats): Html {
  const labels = stats.daily.map((day) => day.day.slice(5));
  const counted = BOUNCE_CATEGORIES.filter((category) => stats.bounce_categories[category] > 0);
  return html`<section aria-labelledby="sending-heading"><h2 id="sending-heading">Sending, last ${stats.days} days</h2>
<p>${stats.sent} email${stats.sent === 1 ? '' : 's'} sent, ${stats.bounced} bounced (${percent(stats.bounce_rate)}), ${stats.complained} complained about (${percent(stats.complaint_rate)}), counted by the day each email was accepted.${stats.tenants.sent ? ` Your tenants sent ${stats.tenants.sent} of them.` : ''}</p>
<div class="charts"><figure>${barChart({
    id: 'chart-bounces',
    title: 'Bounces per day',
    desc: stats.daily.map((day) => `${day.day}: ${day.bounced} of ${day.sent}`).join('; '),
    labels,
    values: stats.daily.map((day) => day.bounced),
  })}<figcaption>Bounces per day</figcaption></figure>
<figure>${rateChart({
    id: 'chart-bounce-rate',
    title: 'Bounce and complaint rate per day',
    desc: stats.daily.map((day) => `${day.day}: ${day.sent ? percent(day.bounced / day.sent) : 'none sent'}`).join('; '),
    labels,
    series: [
      { name: 'Bounces', values: stats.daily.map((day) => (day.sent ? day.bounced / day.sent : null)) },
      { name: 'Complaints', values: stats.daily.map((day) => (day.sent ? day.complained / day.sent : null)) },
    ],
  })}<figcaption>Bounce and complaint rate per day</figcaption></figure></div>
${table(
  `Bounces by category over ${stats.days} days`,
  ['Category', 'Emails', ...labels.slice(-7)],
  counted.map(
    (category) =>
      html`<tr><th scope="row">${BOUNCE_CATEGORY_LABELS[category]}</th><td class="num">${stats.bounce_categories[category]}</td>${stats.daily.slice(-7).map((day) => html`<td class="num">${day.bounce_categories[category]}</td>`)}</tr>`,
  ),
  'No bounces in these days.',
)}</section>`;
}
