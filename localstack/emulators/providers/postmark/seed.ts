/**
 * What a Postmark account of the provider emulator holds (PostmarkSeed), in Postmark's own wire shapes
 * (field names and types as the real API answers them; see /work/shared/research/providers/*.md), so a
 * seed is a list of raw Postmark objects the emulator (./routes.ts, ./operations/) serves as they are. Plus builders of
 * the objects whose most fields are the same in every account (a server, a message stream, a webhook's
 * triggers), shared by the demo accounts and the test fixtures.
 */

// ---------- Postmark (PascalCase, ISO 8601 with offsets) ----------

export interface PostmarkServer {
  ID: number;
  Name: string;
  ServerLink: string;
  Color: string;
  SmtpApiActivated: boolean;
  RawEmailEnabled: boolean;
  DeliveryType: 'Live' | 'Sandbox';
  InboundAddress: string;
  InboundHookUrl: string;
  BounceHookUrl: string;
  OpenHookUrl: string;
  DeliveryHookUrl: string;
  ClickHookUrl: string;
  PostFirstOpenOnly: boolean;
  InboundDomain: string;
  InboundHash: string;
  InboundSpamThreshold: number;
  TrackOpens: boolean;
  TrackLinks: 'None' | 'HtmlAndText' | 'HtmlOnly' | 'TextOnly';
  IncludeBounceContentInHook: boolean;
  EnableSmtpApiErrorHooks: boolean;
  // ApiTokens is answered by the emulator: the account's server token.
}
export interface PostmarkMessageStream {
  ID: string;
  ServerID: number;
  Name: string;
  Description: string | null;
  MessageStreamType: 'Transactional' | 'Broadcasts' | 'Inbound';
  CreatedAt: string;
  UpdatedAt: string | null;
  ArchivedAt: string | null;
  ExpectedPurgeDate: string | null;
  SubscriptionManagementConfiguration: { UnsubscribeHandlingType: 'None' | 'Postmark' | 'Custom' };
}
export interface PostmarkSuppression {
  EmailAddress: string;
  SuppressionReason: 'HardBounce' | 'SpamComplaint' | 'ManualSuppression';
  Origin: 'Recipient' | 'Customer' | 'Admin';
  CreatedAt: string;
}
export interface PostmarkTemplate {
  TemplateId: number;
  Name: string;
  Alias: string | null;
  Subject: string | null;
  HtmlBody: string | null;
  TextBody: string | null;
  AssociatedServerId: number;
  Active: boolean;
  TemplateType: 'Standard' | 'Layout';
  /** Alias of the layout a Standard template is wrapped in. */
  LayoutTemplate: string | null;
}
export interface PostmarkDomainDetails {
  ID: number;
  Name: string;
  SPFVerified: boolean;
  SPFHost: string;
  SPFTextValue: string;
  DKIMVerified: boolean;
  WeakDKIM: boolean;
  DKIMHost: string;
  DKIMTextValue: string;
  DKIMPendingHost: string;
  DKIMPendingTextValue: string;
  DKIMRevokedHost: string;
  DKIMRevokedTextValue: string;
  SafeToRemoveRevokedKeyFromDNS: boolean;
  DKIMUpdateStatus: 'Pending' | 'Verified';
  ReturnPathDomain: string;
  ReturnPathDomainVerified: boolean;
  ReturnPathDomainCNAMEValue: string;
}
export interface PostmarkWebhook {
  ID: number;
  Url: string;
  MessageStream: string;
  HttpAuth: { Username: string | null; Password: string | null };
  HttpHeaders: { Name: string; Value: string }[];
  Triggers: {
    Open: { Enabled: boolean; PostFirstOpenOnly: boolean };
    Click: { Enabled: boolean };
    Delivery: { Enabled: boolean };
    Bounce: { Enabled: boolean; IncludeContent: boolean };
    SpamComplaint: { Enabled: boolean; IncludeContent: boolean };
    SubscriptionChange: { Enabled: boolean };
  };
}
export interface PostmarkSeed {
  server: PostmarkServer;
  message_streams: PostmarkMessageStream[];
  /** Suppressions per message stream id (GET /message-streams/{id}/suppressions/dump). */
  suppressions: Record<string, PostmarkSuppression[]>;
  templates: PostmarkTemplate[];
  /** Account-level (read with the account token). */
  domains: PostmarkDomainDetails[];
  webhooks: PostmarkWebhook[];
}

// ---------- Builders ----------

/** A live Postmark server `id` without hook URLs, unless `fields` says otherwise. */
export function postmarkServer(id: number, name: string, fields: Partial<PostmarkServer> = {}): PostmarkServer {
  return {
    ID: id,
    Name: name,
    ServerLink: `https://account.postmarkapp.com/servers/${id}/streams`,
    Color: 'blue',
    SmtpApiActivated: true,
    RawEmailEnabled: false,
    DeliveryType: 'Live',
    InboundAddress: '',
    InboundHookUrl: '',
    BounceHookUrl: '',
    OpenHookUrl: '',
    DeliveryHookUrl: '',
    ClickHookUrl: '',
    PostFirstOpenOnly: false,
    InboundDomain: '',
    InboundHash: '',
    InboundSpamThreshold: 0,
    TrackOpens: true,
    TrackLinks: 'HtmlAndText',
    IncludeBounceContentInHook: false,
    EnableSmtpApiErrorHooks: false,
    ...fields,
  };
}

/** A message stream of Postmark server `serverId`; archived when `archivedAt` is given. */
export function postmarkStream(
  serverId: number,
  id: string,
  name: string,
  type: PostmarkMessageStream['MessageStreamType'],
  archivedAt: string | null = null,
): PostmarkMessageStream {
  return {
    ID: id,
    ServerID: serverId,
    Name: name,
    Description: null,
    MessageStreamType: type,
    CreatedAt: '2024-07-01T00:00:00-04:00',
    UpdatedAt: null,
    ArchivedAt: archivedAt,
    ExpectedPurgeDate: archivedAt ? '2025-02-01T00:00:00-05:00' : null,
    SubscriptionManagementConfiguration: { UnsubscribeHandlingType: type === 'Broadcasts' ? 'Postmark' : 'None' },
  };
}

/** A Postmark webhook's triggers: the ones named true are on, the rest off. */
export function postmarkTriggers(on: Partial<Record<keyof PostmarkWebhook['Triggers'], boolean>>): PostmarkWebhook['Triggers'] {
  return {
    Open: { Enabled: on.Open ?? false, PostFirstOpenOnly: false },
    Click: { Enabled: on.Click ?? false },
    Delivery: { Enabled: on.Delivery ?? false },
    Bounce: { Enabled: on.Bounce ?? false, IncludeContent: false },
    SpamComplaint: { Enabled: on.SpamComplaint ?? false, IncludeContent: false },
    SubscriptionChange: { Enabled: on.SubscriptionChange ?? false },
  };
}
