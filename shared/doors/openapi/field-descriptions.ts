/**
 * What the fields of request bodies whose schema lives outside shared/domain mean (the schema says their
 * types and limits): the send request's, written here first, and the test event's (shared/usecases/webhooks/test-event.ts).
 * Every other field is described where it is validated (`.describe` in shared/domain/**). ./components.ts
 * puts them on the document's components, by component name.
 */
export const FIELD_DESCRIPTIONS: Record<string, Record<string, string>> = {
  SendEmailRequest: {
    from: '`"a@b.c"`, `"Name <a@b.c>"` or `{email, name?}`: a verified domain of the account, or the sandbox sender (`<anything>@<sandbox domain>`); for a tenant with default_from_domain, a bare local part. Required unless the template has a from.',
    to: 'An address or a list; to, cc and bcc together at most 50.',
    subject: 'One line. Required unless a template gives it.',
    html: 'At least one of html and text (unless template).',
    text: 'At least one of html and text (unless template).',
    tags: '`[{name, value}]` or `{name: value}`: up to 10, names and values of A-Za-z0-9_- (stored with the email, sent to SES).',
    headers:
      'Custom headers (at most 50; names 1-126 printable ASCII characters, values one line of at most 998). Transport and authentication headers (To, From, DKIM-Signature, List-Unsubscribe, ...) and every X-SES-* and X-Service-* header (the prefix in any case) are refused at `headers.<Name>`.',
    scheduled_at:
      'ISO 8601 with a time zone, in the future, at most 365 days ahead: the email is stored as `scheduled`. No attachments then.',
    category:
      'transactional (default), product or newsletter: product and newsletter mail respects category opt-outs (and a template gives its own).',
    attachments:
      'Up to 10: inline (`data` in base64, 10 MB decoded each) or an upload (`attachment_id` from POST /attachments). Refused on scheduled sends and in batches.',
    tenant: 'Send on behalf of a tenant: its external_id or id.',
    template: 'Send a published template by alias; html and text are refused with it.',
    unsubscribe:
      "Managed one-click unsubscribe (List-Unsubscribe headers, `{{unsubscribe_url}}`); default: the template's setting, else off.",
  },
  SendTestEventRequest: {
    event: 'the webhook event type to build the payload of (any supported type)',
    email_id: 'build it from this email of the account (msg_...): email events the service sends only; default: an example',
    deliver: 'false only returns the payload; default true: it is also queued to the subscribed endpoints',
    tenant: 'the tenant the payload names (external_id or id): email events carry it, tenant events are about it',
  },
};
