/**
 * The parts of a domain's UpdateItem that turn receiving on or off, or keep it as it was read (a check):
 * each conditional on the state it was planned from (shared/domain/domains/inbound-change.ts).
 */
import type { InboundChange } from '#shared/domain/domains/inbound-change';

/** Receiving as it was read: a domain stored before inbound existed has no flag (off). */
const INBOUND_OFF = '(attribute_not_exists(#inbound) OR #inbound = :inbound_off)';

/** The parts of an UpdateItem that turn receiving on or off (or keep it), each conditional on the state planned from. */
export function inboundWrite(change: InboundChange) {
  const names: Record<string, string> = { '#inbound': 'inbound_enabled' };
  switch (change.kind) {
    case 'keep':
      return {
        sets: [],
        removes: [],
        conditions: [change.enabled ? '#inbound = :inbound_on' : INBOUND_OFF],
        names,
        values: change.enabled ? { ':inbound_on': true } : { ':inbound_off': false },
      };
    case 'enable':
      // The flag being off means the records hold no MX record of ours (every write keeps them together).
      return {
        sets: ['#inbound = :inbound_on', '#subdomain = :subdomain', '#records = list_append(#records, :mx)'],
        removes: [],
        conditions: [INBOUND_OFF],
        names: { ...names, '#subdomain': 'inbound_subdomain', '#records': 'records' },
        values: { ':inbound_on': true, ':inbound_off': false, ':subdomain': change.subdomain, ':mx': [change.record] },
      };
    case 'disable': {
      const record = change.recordIndex === null ? null : `#records[${change.recordIndex}]`;
      return {
        sets: ['#inbound = :inbound_off', '#subdomain = :no_subdomain'],
        removes: record ? [record] : [],
        // The record removed by position is the MX record only while it is still at that position.
        conditions: ['#inbound = :inbound_on', ...(record ? [`${record}.#purpose = :mx_purpose`] : [])],
        names: { ...names, '#subdomain': 'inbound_subdomain', ...(record ? { '#records': 'records', '#purpose': 'purpose' } : {}) },
        values: { ':inbound_on': true, ':inbound_off': false, ':no_subdomain': null, ...(record ? { ':mx_purpose': 'inbound_mx' } : {}) },
      };
    }
  }
}
