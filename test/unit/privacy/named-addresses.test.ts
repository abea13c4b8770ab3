/** Which addresses a record names (shared/domain/privacy/named-addresses.ts): what an erasure finds each record by. */
import {
  addressesIn,
  addressesOfEventPayload,
  addressesOfRecords,
  addressesOfRun,
  receivedAddressesNamed,
  recipientsNamed,
} from '#shared/domain/privacy/named-addresses';

test('a sent email names its To, Cc, Bcc and Reply-To (a contact form: the visitor only in Reply-To), never its sender', () => {
  expect(recipientsNamed({ to: ['support@acme.example'], cc: [], bcc: [], reply_to: ['Visitor <Visitor@Example.org>'] })).toEqual([
    'support@acme.example',
    'visitor@example.org',
  ]);
  expect(recipientsNamed({ to: ['a@x.example'], cc: ['B <b@x.example>'], bcc: ['c@x.example'], reply_to: [] })).toEqual([
    'a@x.example',
    'b@x.example',
    'c@x.example',
  ]);
});

test('a received email names its From, Reply-To, envelope sender, To and Cc, but not the addresses it was received at', () => {
  expect(
    receivedAddressesNamed({
      from: '"Jane" <Jane@Example.org>',
      reply_to: ['reply@example.org'],
      mail_from: 'bounces+x=y@example.org',
      to: ['Support <SUPPORT@inbound.acme.example>', 'friend@example.net'],
      cc: ['cc@example.net'],
      rcpt_to: ['support@inbound.acme.example'],
    }),
  ).toEqual(['jane@example.org', 'reply@example.org', 'bounces+x=y@example.org', 'friend@example.net', 'cc@example.net']);
});

test('an email event names every address in its data but its sender and message ids (tags and metadata too)', () => {
  const payload = JSON.stringify({
    type: 'email.delivered',
    data: {
      from: 'hello@acme.example',
      to: ['a@x.example'],
      cc: ['b@x.example'],
      message_id: '<id@email.amazonses.com>',
      tags: [{ name: 'who', value: 'tag@x.example' }],
    },
  });
  expect(addressesOfEventPayload('email.delivered', payload)).toEqual(['a@x.example', 'b@x.example', 'tag@x.example']);
});

test("email.received names its sender, Reply-To, Cc and any address in its text, not the account's own recipients", () => {
  const payload = JSON.stringify({
    type: 'email.received',
    data: {
      from: 'Jane <jane@example.org>',
      to: ['support@in.acme.example'],
      rcpt_to: ['support@in.acme.example'],
      cc: ['cc@example.net'],
      reply_to: ['r@example.org'],
      mail_from: 'jane@example.org',
      stripped_text: 'or write to other@example.com.',
      references: ['<m@example.org>'],
    },
  });
  expect(addressesOfEventPayload('email.received', payload)).toEqual([
    'jane@example.org',
    'cc@example.net',
    'r@example.org',
    'other@example.com',
  ]);
  expect(addressesOfEventPayload('email.received', 'not json')).toEqual([]);
});

test('a run names every address in its event and an email: subject', () => {
  expect(
    addressesOfRun({
      event: { name: 'user.created', email: 'U@example.org', data: { referrer: { email: 'ref@example.org' } } },
      subject: 'email:u@example.org',
    }),
  ).toEqual(['u@example.org', 'ref@example.org']);
});

test('any text (an export part: NDJSON, CSV) gives every address in it, uncapped when asked', () => {
  const lines = Array.from({ length: 1500 }, (_, i) => JSON.stringify({ to: [`p${i}@example.org`] })).join('\n');
  expect(addressesIn([lines])).toHaveLength(1000);
  expect(addressesIn([lines], null)).toHaveLength(1500);
  expect(addressesIn(['email,reason\r\nGone@Example.com,manual\r\n'])).toEqual(['gone@example.com']);
});

test("an export part's records give every address in their values, a subject's line break and all", () => {
  expect(
    addressesOfRecords([
      { object: 'email', to: ['A@x.example'], subject: 'hi\nb@x.example' },
      { object: 'suppression', email: 'c@x.example' },
      { email: 'quote,"Comma"@x.example' },
    ]),
  ).toEqual(['a@x.example', 'b@x.example', 'c@x.example', 'quote,"comma"@x.example']);
});

test('the same addresses as the pattern [^sep]+@[^sep]+ finds, in one pass: runs without @, a lone @, trailing dots', () => {
  expect(addressesIn(['Ann <Ann@Example.com>, bob@x.org.; @nobody, nobody@, a@@b, "c@d" (e@f)'])).toEqual([
    'ann@example.com',
    'bob@x.org',
    'a@@b',
    'c@d',
    'e@f',
  ]);
  // A value that is one bare address is also taken whole (as before).
  expect(addressesIn(['x@y.', '@', 'no address here'])).toEqual(['x@y.', 'x@y']);
});

test("a stranger's 450 KB header without an @, and one of dots after an @, are read in one pass (the regex took minutes: the inbound worker stalled)", () => {
  const long = 'a'.repeat(450_000);
  expect(addressesIn([long, `${long}@${'b'.repeat(10)}`, `x@${'.'.repeat(450_000)}y`])).toEqual([
    `${long}@${'b'.repeat(10)}`,
    `x@${'.'.repeat(450_000)}y`,
  ]);
});
