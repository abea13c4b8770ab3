/**
 * --tracked with --cost: each delivered email of an API phase opened once, as a mail client would (its
 * pixel fetched with a browser's User-Agent: a human open, recorded and published as email.opened), and
 * the opens priced per million from the first fetch until the pipeline drained. The pixel's URL is read
 * from the message the SES emulator delivered (before the meter's mark: reading the mailbox is the
 * bench's, not the service's).
 */
import { countedLoop } from '../../lib/load';
import type { CostSession } from '../../lib/cost/cost-session';
import type { Cost } from '../../lib/cost/price-usage';
import type { PipelineProbe } from '../../lib/pipeline-drain';

/** A desktop browser's User-Agent (not a link scanner, not Apple's proxy: docs/tracking.md, "Machine opens"). */
const MAIL_CLIENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** The open pixel's URL in a delivered message (its html part may be quoted-printable). */
export function pixelUrl(raw: string): string | null {
  const unfolded = raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
  return /https?:\/\/[^\s"'<>]+\/t\/open\/[A-Za-z0-9._~-]+/.exec(unfolded)?.[0] ?? null;
}

export interface OpensMeasured {
  opened: number;
  missing: number;
  cost: Cost;
}

export async function measureOpens(context: {
  apiUrl: string;
  ids: string[];
  meter: CostSession;
  pipeline: PipelineProbe;
  concurrency?: number;
}): Promise<OpensMeasured> {
  const urls: string[] = [];
  let missing = 0;
  for (const id of context.ids) {
    const response = await fetch(`${context.apiUrl}/_local/ses/messages?email_id=${encodeURIComponent(id)}&raw=1`);
    const { messages } = (await response.json()) as { messages: { raw?: string }[] };
    const url = messages[0]?.raw ? pixelUrl(messages[0].raw) : null;
    if (url) urls.push(url);
    else missing++;
  }
  const mark = await context.meter.mark(context.apiUrl);
  const result = await countedLoop(context.concurrency ?? 8, urls.length, async (n) => {
    const response = await fetch(urls[n]!, { headers: { 'user-agent': MAIL_CLIENT } });
    await response.arrayBuffer();
    return { ok: response.status === 200, label: String(response.status) };
  });
  await context.pipeline.drain();
  const opened = result.ok;
  return { opened, missing, cost: await context.meter.since(mark, context.apiUrl, { emails: opened, apiRequests: opened }) };
}
