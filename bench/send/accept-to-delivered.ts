/**
 * Accept-to-delivered, a phase of its own on an idle pipeline: `count` sends one at a time, each polled
 * with GET /emails/{id} every POLL_MS until `delivered` (at most 30 s).
 */
import { HttpClient } from '../lib/load';
import { sleep } from './clock';
import { log } from './log';
import type { ApiSender } from './sender';

export const POLL_MS = 5;
const GIVE_UP_MS = 30_000;

export interface DeliveryTimes {
  /** ms from the send to its 200. */
  accepted: number[];
  /** ms from the send to `delivered`. */
  delivered: number[];
  /** Sends refused, or not delivered within 30 s. */
  undelivered: number;
}

export async function acceptToDelivered(label: string, apiUrl: string, sender: ApiSender, count: number): Promise<DeliveryTimes> {
  log(`${label}: accept-to-delivered, ${count} sequential sends polled every ${POLL_MS} ms`);
  const client = new HttpClient(apiUrl, 2);
  const times: DeliveryTimes = { accepted: [], delivered: [], undelivered: 0 };
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const sent = await sender.apiSend(client, sender.nextNumber());
    times.accepted.push(performance.now() - t0);
    if (!sent.id) {
      times.undelivered++;
      continue;
    }
    for (;;) {
      const response = await client.request('GET', `/emails/${sent.id}`, sender.headers);
      if (response.status === 200 && (JSON.parse(response.text) as { email: { status: string } }).email.status === 'delivered') {
        times.delivered.push(performance.now() - t0);
        break;
      }
      if (performance.now() - t0 > GIVE_UP_MS) {
        times.undelivered++;
        break;
      }
      await sleep(POLL_MS);
    }
  }
  client.close();
  return times;
}
