/**
 * Checks only a real SES can settle: the open questions of the SES issue, listed in
 * docs/local-cloud/ses.md ("What only AWS can settle"), where the local SES follows a choice of ours
 * because SES documents nothing. Each runs what the public API can run. Against the local cloud a
 * passing one is reported ONLY-AWS ("settled only on AWS": it passed against our emulator's choice, which
 * proves the product, not SES); against AWS it is PASS or FAIL, and a FAIL's answer is the finding.
 */
import { check } from '../client';
import { Skip, type Step } from '../runner';
import { secondsBetween, send, sendBody, waitForOutcome } from './common';

/** Letters outside ASCII in three scripts, and an accent that NFC and NFD write differently. */
export const NON_ASCII_NAME = 'Zoë Ångström 日本 Ωmega';

export const nonAsciiDisplayName: Step = {
  name: 'a non-ASCII sender display name is delivered',
  settles:
    'whether SES v2 refuses or strips a non-ASCII friendly-from (the product sends the bare address in FromEmailAddress and the name RFC 2047-encoded in the message)',
  async run(ctx) {
    const id = await send(ctx, sendBody(ctx, 'a non-ASCII display name', { from: { email: ctx.options.from, name: NON_ASCII_NAME } }));
    const stored = await ctx.api.expect(200, 'GET', `/emails/${id}`);
    check(
      String(stored.body.email.from).includes(NON_ASCII_NAME),
      `the stored from (${stored.body.email.from}) lost the display name`,
      stored,
    );
    await waitForOutcome(ctx, id);
  },
};

export const byodkimDomain: Step = {
  name: "mail from the sender's own domain is delivered with its own DKIM key (BYODKIM)",
  settles:
    "that SES accepts the domain's own key (CreateEmailIdentity DkimSigningAttributes) and delivers mail signed with it; the header fields SES signs (h=) are read in a delivered message at a real mailbox",
  async run(ctx) {
    const own = ctx.state.ownDomain as { id: string; name: string } | undefined;
    if (!own) throw new Skip("--from is not on a verified domain of the account (the sandbox domain is the operator's)");
    if (!ctx.state.delivered) throw new Skip('not run: no email from the domain was delivered');
    const answer = await ctx.api.expect(200, 'GET', `/domains/${own.id}`);
    const dkim = (answer.body.domain.records as any[]).find((record) => record.purpose === 'dkim');
    check(dkim?.status === 'verified', `the DKIM record of ${own.name} is ${dkim?.status}, not verified`, answer);
    check(
      answer.body.domain.provider?.status !== 'pending' && answer.body.domain.provider?.status !== 'failed',
      `SES reports ${own.name} ${answer.body.domain.provider?.status}`,
      answer,
    );
    ctx.note(`selector ${dkim.name.split('._domainkey.')[0]}`);
  },
};

/**
 * A send through an SES tenant, then one the send worker may still name the tenant for after the domain
 * went back to the account (its domain facts are cached 60 s: docs/ses-tenants.md, Sends). SES refuses
 * that one (the identity is no longer associated with the tenant) with a code the product must
 * recognise to send it again at the account level; with an unknown code the email fails, and its
 * bounce_reason is SES's answer. Both must be delivered.
 */
export const sesTenantSends: Step = {
  name: 'sends through an SES tenant, and after its domain went back (tenant refusal fallback)',
  settles:
    "SES's error codes for a send naming a tenant the identity is not associated with (the product falls back on NotFoundException and BadRequestException, chosen locally)",
  async run(ctx) {
    const own = ctx.state.ownDomain as { id: string; name: string; tenant: string | null } | undefined;
    if (!own) throw new Skip('needs --from on a verified domain of the account (SES tenants hold only identities of their own domains)');
    if (own.tenant) throw new Skip(`${own.name} belongs to tenant ${own.tenant}: the check moves an account-wide domain only`);
    const externalId = `test-deployed-${ctx.runId}`;
    const created = await ctx.api.request('POST', '/tenants', { body: { external_id: externalId } });
    if (created.status === 403 && ['tenants_not_enabled', 'plan_limit'].includes(created.body?.error?.code))
      throw new Skip(`the account cannot open a tenant (${created.body.error.code})`);
    check(created.status === 201, `POST /tenants answered ${created.status}, expected 201`, created);
    const tenantPath = `/tenants/${encodeURIComponent(externalId)}`;
    // Deleting the tenant also returns its domains to the account (docs/tenants.md, Deleting a tenant).
    ctx.cleanup.add(`tenant ${externalId}`, async () => {
      await ctx.api.expect([200, 404], 'DELETE', tenantPath);
    });
    await ctx.api.expect(200, 'POST', `${tenantPath}/domains`, { body: { domain: own.name } });
    const through = await send(ctx, sendBody(ctx, 'a send through an SES tenant', { tenant: externalId }));
    const first = await waitForOutcome(ctx, through);
    check(first.tenant === externalId, `the email's tenant is ${first.tenant}, expected ${externalId}`, ctx.api.last);
    await ctx.api.expect(200, 'DELETE', `${tenantPath}/domains/${encodeURIComponent(own.name)}`);
    const after = await send(ctx, sendBody(ctx, 'a tenant send after the domain went back', { tenant: externalId }));
    const second = await waitForOutcome(ctx, after);
    ctx.note(
      `delivered ${secondsBetween(first.created_at, first.delivered_at ?? first.created_at)} and ${secondsBetween(second.created_at, second.delivered_at ?? second.created_at)} after acceptance`,
    );
    const deleted = await ctx.api.expect(200, 'DELETE', tenantPath);
    check(deleted.body.deleted === true, 'DELETE /tenants/{tenant} did not answer deleted: true', deleted);
    ctx.cleanup.done(`tenant ${externalId}`);
  },
};

export const burstWithinQuota: Step = {
  name: 'a burst of emails is delivered, none lost to SES throttling',
  settles:
    "how large a burst above MaxSendRate SES lets pass (the product paces at 90% of SES's rate; a throttled send would end failed or late)",
  async run(ctx) {
    const count = ctx.options.burst;
    if (count === 0) throw new Skip('--burst 0');
    const items = Array.from({ length: count }, (_, index) => sendBody(ctx, `burst ${index + 1} of ${count}`));
    const started = Date.now();
    const ids: string[] = [];
    for (let offset = 0; offset < items.length; offset += 100) {
      const answer = await ctx.api.expect(200, 'POST', '/emails/batch', { body: { emails: items.slice(offset, offset + 100) } });
      for (const item of answer.body.data as any[]) {
        check(
          /^msg_/.test(item.id ?? '') && !item.error,
          `burst item ${offset + item.index} was refused: ${JSON.stringify(item.error)}`,
          answer,
        );
        ids.push(item.id);
      }
    }
    let last = 0;
    for (const id of ids) last = Math.max(last, Date.parse((await waitForOutcome(ctx, id)).delivered_at ?? new Date().toISOString()));
    ctx.note(`${count} emails, the last delivered ${((last - started) / 1000).toFixed(1)} s after the batch`);
  },
};
