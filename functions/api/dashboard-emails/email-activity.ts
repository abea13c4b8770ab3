/**
 * The emails page's activity charts (sends per day; delivery, bounce and complaint rates per day) and their
 * data table, over the CHART_SAMPLE most recent emails by UTC day (./email-list-limits.ts), saying so.
 */
import { listEmails } from '#shared/usecases/emails/list-emails';
import { barChart, rateChart } from '../dashboard/pages/charts';
import { dailyActivity, type ActivitySample } from '../dashboard/pages/email-model';
import type { PageContext } from '../dashboard/pages/forms';
import { html, percent, table, type Html } from '../dashboard/pages/layout';
import { CHART_DAYS, CHART_SAMPLE, SEARCH_PAGE } from './email-list-limits';
import type { DashboardEmailsServices } from './services';

type PublicEmail = Awaited<ReturnType<typeof listEmails>>['items'][number];

function activitySection(sample: ActivitySample): Html {
  const labels = sample.days.map((day) => day.day.slice(5));
  const basis = sample.truncated
    ? `The ${sample.emails} most recent emails, by UTC day of acceptance (days before the oldest of them are not shown, and its day may be partial).`
    : `All ${sample.emails} emails of the last ${CHART_DAYS} days at most, by UTC day of acceptance.`;
  const rates = ['delivery_rate', 'bounce_rate', 'complaint_rate'] as const;
  return html`<section aria-labelledby="activity-heading"><h2 id="activity-heading">Activity</h2><p class="hint">${basis} Rates are shares of the emails sent.</p>
<div class="charts"><figure>${barChart({
    id: 'chart-sends',
    title: 'Emails sent per day',
    desc: sample.days.map((day) => `${day.day}: ${day.sent} sent`).join('; ') || 'No emails.',
    labels,
    values: sample.days.map((day) => day.sent),
  })}<figcaption>Sends per day</figcaption></figure>
<figure>${rateChart({
    id: 'chart-rates',
    title: 'Delivery, bounce and complaint rates per day',
    desc:
      sample.days
        .map(
          (day) =>
            `${day.day}: delivered ${percent(day.delivery_rate)}, bounced ${percent(day.bounce_rate)}, complained ${percent(day.complaint_rate)}`,
        )
        .join('; ') || 'No emails.',
    labels,
    series: [
      { name: 'Delivery rate', values: sample.days.map((day) => day.delivery_rate) },
      { name: 'Bounce rate', values: sample.days.map((day) => day.bounce_rate) },
      { name: 'Complaint rate', values: sample.days.map((day) => day.complaint_rate) },
    ],
  })}<figcaption>Delivery, bounce and complaint rates per day</figcaption></figure></div>
<details><summary>Data table</summary>${table(
    'Activity per UTC day',
    [
      'Day',
      'Accepted',
      'Sent',
      'Delivered',
      'Bounced',
      'Complained',
      ...rates.map((rate) => rate.replace('_', ' ').replace(/^./, (ch) => ch.toUpperCase())),
    ],
    sample.days.map(
      (day) =>
        html`<tr><th scope="row">${day.day}</th><td class="num">${day.accepted}</td><td class="num">${day.sent}</td><td class="num">${day.delivered}</td><td class="num">${day.bounced}</td><td class="num">${day.complained}</td>${rates.map((rate) => html`<td class="num">${percent(day[rate])}</td>`)}</tr>`,
    ),
    'No emails yet.',
  )}</details></section>`;
}

/** The charts of the most recent emails: at most CHART_SAMPLE of them, read SEARCH_PAGE at a time until CHART_DAYS days back. */
export async function recentActivity(services: DashboardEmailsServices, c: PageContext, tenant: string | undefined): Promise<Html> {
  const principal = c.get('principal');
  // The service's clock (the local cloud can move it), as the use cases read it.
  const now = services.clock.now();
  const sample: PublicEmail[] = [];
  let cursor: string | undefined;
  let more = false;
  for (let read = 0; read < CHART_SAMPLE / SEARCH_PAGE; read++) {
    const page = await listEmails(services, principal, { limit: SEARCH_PAGE, cursor, tenant });
    sample.push(...page.items);
    more = page.next_cursor !== null;
    const oldest = page.items[page.items.length - 1];
    if (!more || (oldest && now.getTime() - Date.parse(oldest.created_at) > CHART_DAYS * 86_400_000)) break;
    cursor = page.next_cursor!;
  }
  return activitySection(dailyActivity(sample, now, CHART_DAYS, more));
}
