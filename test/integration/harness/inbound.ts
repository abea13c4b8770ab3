/**
 * Inbound fixtures: the stack's MX listener, a receiving domain (added with inbound_enabled, its records
 * published in the DNS emulator, verified), sender domains with SPF/DKIM/DMARC records, and sending to the
 * MX with nodemailer.
 */
import { generateKeyPairSync } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { LocalStackInfo } from '#localstack/cloud/cloud';
import { publish, publishAll, uniqueDomain } from './dns';
import { relay } from './smtp';
import { api, stack, waitFor, type TestAccount } from './stack';

export function mx(): { host: string; port: number } {
  const info = stack().info as LocalStackInfo;
  if (!info.mx) throw new Error('the stack has no MX listener (stack.json mx)');
  const [host, port] = info.mx.split(':') as [string, string];
  return { host, port: Number(port) };
}

/** A verified domain of the account with inbound_enabled; `address(local)` is an address on its receiving subdomain. */
export async function receivingDomain(account: TestAccount, options: { tenant?: string } = {}) {
  const name = uniqueDomain();
  const created = await api('POST', '/domains', { key: account.key, body: { name, inbound_enabled: true, ...options } });
  if (created.status !== 200 && created.status !== 201) throw new Error(`POST /domains answered ${created.status}: ${created.text}`);
  const domain = created.body.domain as { id: string; inbound_subdomain: string; records: Parameters<typeof publishAll>[0] };
  await publishAll(domain.records);
  const verified = await api('POST', `/domains/${domain.id}`, { key: account.key, body: { action: 'verify' } });
  if (verified.body.domain?.status !== 'verified') throw new Error(`domain did not verify: ${verified.text}`);
  return { id: domain.id, name, subdomain: domain.inbound_subdomain, address: (local: string) => `${local}@${domain.inbound_subdomain}` };
}

/** A sending domain somewhere else: SPF allowing (or not) loopback, a DKIM key in DNS, a DMARC policy. */
export async function senderDomain(options: { spf?: string; dmarc?: string } = {}) {
  const name = uniqueDomain();
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const selector = 'mail';
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  await publish(name, 'TXT', [options.spf ?? 'v=spf1 ip4:127.0.0.0/8 -all']);
  await publish(`${selector}._domainkey.${name}`, 'TXT', [`v=DKIM1; k=rsa; p=${p}`]);
  await publish(`_dmarc.${name}`, 'TXT', [options.dmarc ?? 'v=DMARC1; p=reject']);
  return { name, selector, privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

/** nodemailer to the MX: no AUTH, STARTTLS when offered (the relay's CA trusted), as a sending server would. */
export function mxTransport(options: { dkim?: { domainName: string; keySelector: string; privateKey: string }; ignoreTLS?: boolean } = {}) {
  const { host, port } = mx();
  return nodemailer.createTransport({
    host,
    port,
    secure: false,
    ignoreTLS: options.ignoreTLS ?? false,
    tls: { ca: relay().ca, servername: 'localhost' },
    name: 'sender.example-mail.test',
    ...(options.dkim ? { dkim: options.dkim } : {}),
  });
}

/** The email ids in an MX answer (`250 2.0.0 Ok: queued as inb_... [inb_...]`). */
export function receivedIds(response: string): string[] {
  const ids = response.match(/inb_[0-9A-Z]{26}/g);
  if (!ids) throw new Error(`not a queued answer: ${response}`);
  return ids;
}

/** The received email once the inbound worker recorded it. */
export async function waitForReceived(account: TestAccount, id: string, timeoutMs = 20_000) {
  return waitFor(
    async () => {
      const response = await api('GET', `/received-emails/${id}`, { key: account.key });
      return response.status === 200 ? response.body.received_email : undefined;
    },
    `received email ${id}`,
    timeoutMs,
    100,
  );
}
