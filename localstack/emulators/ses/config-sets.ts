/**
 * Configuration sets as the operations on them share them: looking one up (404 NotFoundException when it
 * does not exist) and reading an event destination's definition for create and update.
 */
import { badRequest, notFound } from './errors';
import type { SesStore } from './store';
import { DESTINATION_KINDS, MATCHING_EVENT_TYPES, type ConfigurationSet, type EventDestination, type MatchingEventType } from './types';
import { asObject, optBoolean, optStringArray, reqString, type Json } from './validate';

export function requireConfigSet(store: SesStore, name: string): ConfigurationSet {
  const cs = store.getConfigSet(name);
  if (!cs) throw notFound(`Configuration set <${name}> does not exist.`);
  return cs;
}

/**
 * The destination `def` defines: a new one (`existing` undefined), or `existing` with the fields present
 * in `def` replaced and the absent ones kept.
 */
export function parseEventDestination(
  name: string,
  def: Json,
  existing: EventDestination | undefined,
  log: (msg: string) => void,
): EventDestination {
  const enabled = optBoolean(def.Enabled, 'EventDestination.Enabled');
  const types = matchingEventTypes(def);
  if (!existing && (!types || types.length === 0))
    throw badRequest('EventDestination.MatchingEventTypes must list at least one event type.');
  if (existing && types && types.length === 0) throw badRequest('EventDestination.MatchingEventTypes must list at least one event type.');

  const kinds = DESTINATION_KINDS.filter((k) => def[k] !== undefined && def[k] !== null);
  if (kinds.length > 1) throw badRequest(`EventDestination must have exactly one destination, got ${kinds.join(', ')}.`);
  if (!existing && kinds.length === 0) throw badRequest(`EventDestination must have one of ${DESTINATION_KINDS.join(', ')}.`);

  const result: EventDestination = existing ? { ...existing } : { Name: name, Enabled: false, MatchingEventTypes: [] };
  // SESv2 stores a missing Enabled as false (CDK and CloudFormation default it; the API does not).
  if (enabled !== undefined) result.Enabled = enabled;
  if (types) result.MatchingEventTypes = types;
  const kind = kinds[0];
  if (kind) {
    for (const k of DESTINATION_KINDS) delete result[k];
    if (kind === 'SnsDestination') {
      const sns = asObject(def.SnsDestination, 'EventDestination.SnsDestination');
      const topicArn = reqString(sns.TopicArn, 'EventDestination.SnsDestination.TopicArn');
      if (!/^arn:aws[a-z-]*:sns:[^:]+:[^:]+:[^:]+$/.test(topicArn)) throw badRequest(`TopicArn '${topicArn}' is not an SNS topic ARN.`);
      result.SnsDestination = { TopicArn: topicArn };
    } else {
      result[kind] = asObject(def[kind], `EventDestination.${kind}`);
      log(`event destination ${name}: ${kind} is stored but only SnsDestination publishes events locally`);
    }
  }
  return result;
}

/** The definition's MatchingEventTypes without repeats; undefined when it has none. */
function matchingEventTypes(def: Json): MatchingEventType[] | undefined {
  if (def.MatchingEventTypes === undefined || def.MatchingEventTypes === null) return undefined;
  const list = optStringArray(def.MatchingEventTypes, 'EventDestination.MatchingEventTypes');
  for (const t of list) {
    if (!(MATCHING_EVENT_TYPES as readonly string[]).includes(t)) {
      throw badRequest(`EventDestination.MatchingEventTypes contains an unknown event type '${t}'.`);
    }
  }
  return [...new Set(list)] as MatchingEventType[];
}
