/** Shared data shapes of the local SES emulator (no behaviour here). */

/** Event types this emulator publishes (the `eventType` values SES uses). */
export type SesEventType = 'Send' | 'Delivery' | 'Bounce' | 'Complaint';

/** SESv2 `MatchingEventTypes` values. */
export const MATCHING_EVENT_TYPES = [
  'SEND',
  'REJECT',
  'BOUNCE',
  'COMPLAINT',
  'DELIVERY',
  'OPEN',
  'CLICK',
  'RENDERING_FAILURE',
  'DELIVERY_DELAY',
  'SUBSCRIPTION',
] as const;

export type MatchingEventType = (typeof MATCHING_EVENT_TYPES)[number];

/** The `MatchingEventTypes` value that selects each published event type. */
export const MATCHING_TYPE_OF: Record<SesEventType, MatchingEventType> = {
  Send: 'SEND',
  Delivery: 'DELIVERY',
  Bounce: 'BOUNCE',
  Complaint: 'COMPLAINT',
};

/** The destination kinds SESv2 accepts; only SnsDestination publishes locally. */
export const DESTINATION_KINDS = [
  'SnsDestination',
  'CloudWatchDestination',
  'KinesisFirehoseDestination',
  'EventBridgeDestination',
  'PinpointDestination',
] as const;

export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** An event destination as SESv2 returns it from GetConfigurationSetEventDestinations. */
export interface EventDestination {
  Name: string;
  Enabled: boolean;
  MatchingEventTypes: MatchingEventType[];
  SnsDestination?: { TopicArn: string };
  CloudWatchDestination?: unknown;
  KinesisFirehoseDestination?: unknown;
  EventBridgeDestination?: unknown;
  PinpointDestination?: unknown;
}

/** Options stored with a configuration set and echoed by GetConfigurationSet. */
export const CONFIGURATION_SET_OPTION_KEYS = [
  'TrackingOptions',
  'DeliveryOptions',
  'ReputationOptions',
  'SendingOptions',
  'Tags',
  'SuppressionOptions',
  'VdmOptions',
  'ArchivingOptions',
] as const;

export interface ConfigurationSet {
  name: string;
  createdAt: string;
  /** The CreateConfigurationSet option objects, kept verbatim (keys from CONFIGURATION_SET_OPTION_KEYS). */
  options: Record<string, unknown>;
  eventDestinations: EventDestination[];
}

export interface StoredEvent {
  type: SesEventType;
  at: string;
}

/** One accepted message. `raw` holds the MIME exactly as received (or as composed for Simple content). */
export interface StoredMessage {
  id: string;
  /** Insertion order; stable across restarts. */
  seq: number;
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  configurationSet: string | null;
  tags: Record<string, string>;
  raw: Buffer;
  events: StoredEvent[];
}

/** JSON-ready view of a message (what the viewer endpoints return). */
export interface LocalSesMessage {
  id: string;
  received_at: string;
  from: string;
  to: string[];
  subject: string;
  configuration_set: string | null;
  tags: Record<string, string>;
  events: { type: string; at: string }[];
  raw: string;
  raw_base64: string;
}

export function toLocalMessage(m: StoredMessage): LocalSesMessage {
  return {
    id: m.id,
    received_at: m.receivedAt,
    from: m.from,
    to: [...m.to],
    subject: m.subject,
    configuration_set: m.configurationSet,
    tags: { ...m.tags },
    events: m.events.map((e) => ({ type: e.type, at: e.at })),
    raw: m.raw.toString('utf8'),
    raw_base64: m.raw.toString('base64'),
  };
}
