/** The key layout of templates, automations and their runs, webhooks and imports (./entity-layout.ts). */
import { deliveryDueId, feedAttributes } from '../webhook-deliveries';
import { dueAttributes } from '../due-index';
import { importPartSk } from '../imports';
import type { LayoutArea } from './entity-layout';

export const AUTOMATIONS: LayoutArea = {
  title: 'Templates, automations, webhooks and imports',
  entities: [
    {
      item: 'template',
      description:
        'draft fields, `revision`, and the `published` version as one map; alias unique per account by the key (a conditional put)',
      pk: 'TEMPLATE#<acc>#<alias>',
      sk: 'TEMPLATE',
      indexes: [{ index: 'GSI1', pk: 'ACCOUNT#<acc>#TEMPLATES', sk: '<tpl>' }],
      built: (k, v) => [{ ...k.template(v.acc, v.alias), GSI1PK: k.templatesByAccount(v.acc), GSI1SK: v.tpl }],
    },
    {
      item: 'template published pointer',
      description: 'template id, version: what a send reads first (a few bytes)',
      pk: 'TEMPLATE#<acc>#<alias>',
      sk: 'PUBLISHED',
      built: (k, v) => [k.templatePublished(v.acc, v.alias)],
    },
    {
      item: 'template version',
      description: "immutable, written by the publish's transaction; by template id: an alias re-created starts over",
      pk: 'TEMPLATE#<acc>#<alias>',
      sk: 'VERSION#<tpl>#<n, zero-padded>',
      built: (k, v) => [k.templateVersion(v.acc, v.alias, v.tpl, Number(v.n))],
    },
    {
      item: 'automation',
      description: "definition, `status`, `version`; another account's id is simply not found; [automations.md](../automations.md)",
      pk: 'AUTOMATION#<acc>#<auto>',
      sk: 'AUTOMATION',
      indexes: [{ index: 'GSI1', pk: 'ACCOUNT#<acc>#AUTOMATIONS', sk: '<auto>' }],
      built: (k, v) => [{ ...k.automation(v.acc, v.auto), GSI1PK: k.automationsByAccount(v.acc), GSI1SK: v.auto }],
    },
    {
      item: 'automation trigger / cancel pointer',
      description:
        'only while active, written with the status change: the automations an event starts, and those whose runs it cancels (`cancel_on_events`), read by `POST /events`',
      pk: ['AUTOTRIGGER#<acc>#<event>', 'AUTOCANCEL#<acc>#<event>'],
      sk: '<auto>',
      built: (k, v) => [k.automationTrigger(v.acc, v.event, v.auto), k.automationCancel(v.acc, v.event, v.auto)],
    },
    {
      item: 'automation run',
      description:
        'its own partition; steps copied, step_index/step_state/lease/attempt, wake_at/waiting_for, history; every transition conditional',
      pk: 'RUN#<run>',
      sk: 'RUN',
      indexes: [
        { index: 'GSI1', pk: 'AUTOMATION#<auto>#RUNS', sk: '<run>' },
        {
          index: 'GSI3',
          pk: 'RUNS#<acc>#<subject>',
          sk: '<run>',
          note: "while running: the user's (`user:<id>` or `email:<address>`) running runs, read by `POST /events`",
        },
        { index: 'GSI2', pk: 'DUE#<shard>', sk: '<due ISO>#RUN#<run>', note: 'the due index, while running' },
      ],
      built: (k, v) => [
        {
          ...k.run(v.run),
          GSI1PK: k.runsByAutomation(v.auto),
          GSI1SK: v.run,
          GSI3PK: k.runsBySubject(v.acc, v.subject),
          GSI3SK: v.run,
          ...dueAttributes('RUN', v.run, Date.parse(v['due ISO'])),
        },
      ],
    },
    {
      item: 'webhook endpoint',
      description: 'its signing secret sealed',
      pk: 'WEBHOOK#<wh>',
      sk: 'WEBHOOK',
      indexes: [{ index: 'GSI1', pk: 'ACCOUNT#<acc>#WEBHOOKS', sk: '<wh>' }],
      built: (k, v) => [{ ...k.webhook(v.wh), GSI1PK: k.webhooksByAccount(v.acc), GSI1SK: v.wh }],
    },
    {
      item: 'webhook delivery',
      description: "one item per (endpoint, event): a busy endpoint's delivery writes spread over many partitions; 30 d TTL",
      pk: 'DELIVERY#<wh>#<event ulid>',
      sk: 'DELIVERY',
      indexes: [
        { index: 'GSI1', pk: 'WEBHOOK#<wh>#DELIVERIES', sk: '<event ulid>' },
        {
          index: 'GSI2',
          pk: 'DUE#<shard>',
          sk: '<due ISO>#DELIVERY#<wh>#<event ulid>',
          note: 'the due index, while pending (a push endpoint)',
        },
        {
          index: 'GSI3',
          pk: 'WEBHOOK#<wh>#FEED',
          sk: '<in feed ISO>#<event ulid>',
          note: "a pull endpoint's feed, oldest first, while waiting for its listener's report ([webhooks.md](../webhooks.md))",
        },
      ],
      built: (k, v) => [
        {
          ...k.webhookDelivery(v.wh, v['event ulid']),
          GSI1PK: k.deliveriesByWebhook(v.wh),
          GSI1SK: v['event ulid'],
          ...dueAttributes('DELIVERY', deliveryDueId(v.wh, v['event ulid']), Date.parse(v['due ISO'])),
        },
        {
          ...k.webhookDelivery(v.wh, v['event ulid']),
          GSI1PK: k.deliveriesByWebhook(v.wh),
          GSI1SK: v['event ulid'],
          GSI3PK: k.webhookFeed(v.wh),
          GSI3SK: feedAttributes(v.wh, v['event ulid'], v['in feed ISO']).GSI3SK,
        },
      ],
    },
    {
      item: 'import head',
      description:
        '`POST /migrations`: where the next request resumes, totals, lease; dry runs TTL 1 h and no GSI1; [imports.md](../imports.md)',
      pk: 'MIGRATION#<acc>#<mig>',
      sk: 'HEAD',
      indexes: [{ index: 'GSI1', pk: 'ACCOUNT#<acc>#MIGRATIONS', sk: '<mig>', note: 'not dry runs' }],
      built: (k, v) => [{ ...k.migration(v.acc, v.mig), GSI1PK: k.migrationsByAccount(v.acc), GSI1SK: v.mig }],
    },
    {
      item: 'import report part',
      description: 'one stretch of work each; merged in order',
      pk: 'MIGRATION#<acc>#<mig>',
      sk: 'PART#<n, zero-padded>',
      built: (k, v) => [{ PK: k.migration(v.acc, v.mig).PK, SK: importPartSk(Number(v.n)) }],
    },
  ],
};
