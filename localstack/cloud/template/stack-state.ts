/**
 * The physical names a data folder's resources were given, by logical id, as CloudFormation keeps them in
 * its stack: `<dataDir>/cloudformation.json`. A kept data folder deploys onto the same tables, queues and
 * buckets; a resource whose logical id changed gets a new name (a replacement, as on AWS).
 *
 * Data folders from before the local cloud deployed the template (no cloudformation.json, the table
 * `mailservice-main` present) keep their names: the legacy names of infra/definitions, matched to the
 * template's resources by their construct paths (`aws:cdk:path`). Written on the first start, so the
 * match is made once.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUCKETS, QUEUES, STREAM_WORKERS, TABLE, TOPICS, type BucketId, type QueueId, type TopicId } from '#infra/definitions';
import { pascalCase } from '#infra/constructs/util';
import type { CfnTemplate } from './cfn-types';

export const STATE_FILE = 'cloudformation.json';

interface StackState {
  stackName: string;
  /** Physical name by logical id. */
  physicalNames: Record<string, string>;
}

export function readStackState(dataDir: string | undefined): StackState | undefined {
  if (!dataDir) return undefined;
  const file = path.join(dataDir, STATE_FILE);
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as StackState;
}

export function writeStackState(dataDir: string | undefined, state: StackState): void {
  if (!dataDir) return;
  const file = path.join(dataDir, STATE_FILE);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(state, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}

/** The table name a data folder from before the template deploy holds. */
export const LEGACY_TABLE_NAME = TABLE.name;

/** What a construct path of the template is, in infra/definitions' terms. */
export type DefinitionResource =
  | { kind: 'table'; legacyName: string }
  | { kind: 'queue' | 'dlq'; id: QueueId; legacyName: string }
  | { kind: 'topic'; id: TopicId; legacyName: string }
  | { kind: 'bucket'; id: BucketId; legacyName: string }
  | { kind: 'onFailure'; worker: string; legacyName: string };

/**
 * The definitions' resources by their construct path below the stack (infra/constructs/data.ts,
 * messaging.ts, workers.ts): CDK's `aws:cdk:path` less its first segment, the stack's construct id, which
 * need not be the name the stack is deployed under (LOCAL_STACK_NAME).
 */
export function definitionPaths(): Map<string, DefinitionResource> {
  const byPath = new Map<string, DefinitionResource>([['Data/Table/Resource', { kind: 'table', legacyName: TABLE.name }]]);
  for (const queue of Object.values(QUEUES)) {
    byPath.set(`Messaging/${pascalCase(queue.id)}Queue/Resource`, { kind: 'queue', id: queue.id, legacyName: queue.name });
    byPath.set(`Messaging/${pascalCase(queue.id)}Dlq/Resource`, { kind: 'dlq', id: queue.id, legacyName: queue.dlqName });
  }
  for (const topic of Object.values(TOPICS))
    byPath.set(`Messaging/${pascalCase(topic.id)}Topic/Resource`, { kind: 'topic', id: topic.id, legacyName: topic.name });
  for (const bucket of Object.values(BUCKETS))
    byPath.set(`Data/${pascalCase(bucket.id)}Bucket/Resource`, { kind: 'bucket', id: bucket.id, legacyName: bucket.name });
  for (const worker of STREAM_WORKERS)
    byPath.set(`Workers/${pascalCase(worker.name)}OnFailure/Resource`, {
      kind: 'onFailure',
      worker: worker.name,
      legacyName: worker.onFailure.queueName,
    });
  return byPath;
}

/** The template's resources that infra/definitions names, by logical id; throws when one is missing. */
export function definitionResources(template: CfnTemplate): Map<string, DefinitionResource> {
  const byPath = definitionPaths();
  const found = new Map<string, DefinitionResource>();
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    const definition = byPath.get(
      String(resource.Metadata?.['aws:cdk:path'] ?? '')
        .split('/')
        .slice(1)
        .join('/'),
    );
    if (definition) found.set(logicalId, definition);
  }
  if (found.size !== byPath.size) {
    const have = new Set([...found.values()].map((d) => d.legacyName));
    const missing = [...byPath.values()].filter((d) => !have.has(d.legacyName)).map((d) => d.legacyName);
    throw new Error(
      `the template has no resource for ${missing.join(', ')} of infra/definitions (construct paths changed, or path metadata is off)`,
    );
  }
  return found;
}

/** The legacy names (infra/definitions) of the template's resources, for a data folder from before the template deploy. */
export function legacyPhysicalNames(template: CfnTemplate): Record<string, string> {
  return Object.fromEntries([...definitionResources(template)].map(([logicalId, definition]) => [logicalId, definition.legacyName]));
}
