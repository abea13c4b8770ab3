/**
 * Charts as inline SVG, drawn on the server: no script, no library. Each is an image with a title and a
 * description (role="img", aria-labelledby) and the same numbers in a table beside it, for screen
 * readers and for anyone who would rather read them. Series differ by dash pattern as well as colour.
 */
import { html, type Html } from './layout';

const WIDTH = 600;
const HEIGHT = 220;
const PAD = { left: 44, right: 12, top: 12, bottom: 30 };
const PLOT_W = WIDTH - PAD.left - PAD.right;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** A rounded-up axis maximum (1, 2, 5 x 10^n). */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (value <= step * magnitude) return step * magnitude;
  return 10 * magnitude;
}

function frame(
  id: string,
  title: string,
  desc: string,
  max: number,
  labels: readonly string[],
  unit: (n: number) => string,
  inner: Html,
): Html {
  const every = Math.max(1, Math.ceil(labels.length / 7));
  const x = (i: number) => PAD.left + (labels.length <= 1 ? PLOT_W / 2 : ((i + 0.5) * PLOT_W) / labels.length);
  const ticks = [0, max / 2, max];
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}-title ${id}-desc" focusable="false">
<title id="${id}-title">${title}</title><desc id="${id}-desc">${desc}</desc>
${ticks.map((tick) => {
  const y = PAD.top + PLOT_H - (tick / max) * PLOT_H;
  return html`<line class="axis" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y}" y2="${y}" stroke-opacity="0.35"></line><text x="${PAD.left - 6}" y="${y + 4}" text-anchor="end">${unit(tick)}</text>`;
})}
<line class="axis" x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${PAD.top + PLOT_H}"></line>
${labels.map((label, i) => (i % every === 0 ? html`<text x="${x(i)}" y="${HEIGHT - 10}" text-anchor="middle">${label}</text>` : ''))}
${inner}
</svg>`;
}

export interface BarChart {
  id: string;
  title: string;
  desc: string;
  labels: readonly string[];
  values: readonly number[];
}

export function barChart(chart: BarChart): Html {
  const max = niceMax(Math.max(0, ...chart.values));
  const slot = PLOT_W / Math.max(1, chart.labels.length);
  const width = Math.min(48, Math.max(2, slot * 0.7));
  const bars = chart.values.map((value, i) => {
    const h = (value / max) * PLOT_H;
    return html`<rect class="bar" x="${(PAD.left + i * slot + (slot - width) / 2).toFixed(1)}" y="${(PAD.top + PLOT_H - h).toFixed(1)}" width="${width.toFixed(1)}" height="${h.toFixed(1)}"><title>${chart.labels[i] ?? ''}: ${value}</title></rect>`;
  });
  return frame(chart.id, chart.title, chart.desc, max, chart.labels, fmt, html`${bars}`);
}

export interface LineChart {
  id: string;
  title: string;
  desc: string;
  labels: readonly string[];
  /** Values 0-1 (shares), null where there is none (a day with nothing sent). */
  series: readonly { name: string; values: readonly (number | null)[] }[];
}

export function rateChart(chart: LineChart): Html {
  const highest = Math.max(0, ...chart.series.flatMap((series) => series.values.map((value) => value ?? 0)));
  const max = highest > 0.5 ? 1 : niceMax(highest || 0.01);
  const x = (i: number) => PAD.left + (chart.labels.length <= 1 ? PLOT_W / 2 : ((i + 0.5) * PLOT_W) / chart.labels.length);
  const y = (value: number) => PAD.top + PLOT_H - (value / max) * PLOT_H;
  const lines = chart.series.map((series, s) => {
    // Separate runs of days with a value (a gap where nothing was sent).
    const runs: string[][] = [[]];
    series.values.forEach((value, i) => {
      if (value === null) runs.push([]);
      else runs[runs.length - 1]!.push(`${x(i).toFixed(1)},${y(value).toFixed(1)}`);
    });
    return html`${runs.filter((run) => run.length > 0).map((run) => (run.length === 1 ? html`<circle class="s${s}" cx="${run[0]!.split(',')[0]!}" cy="${run[0]!.split(',')[1]!}" r="3"></circle>` : html`<polyline class="s${s}" points="${run.join(' ')}"></polyline>`))}`;
  });
  const pct = (n: number) => `${(n * 100).toFixed(max < 0.1 ? 1 : 0)}%`;
  return html`${frame(chart.id, chart.title, chart.desc, max, chart.labels, pct, html`${lines}`)}<ul class="legend" aria-hidden="true">${chart.series.map((series, s) => html`<li class="k${s}">${['━━', '╍╍', '┅┅'][s] ?? '──'} ${series.name}</li>`)}</ul>`;
}
