/** A send_email step as a send request (stepEmailRequest): placeholders filled, the wire shape parsed; the step's email id. */
import type { SendEmailStep } from '#shared/domain/automations/automation';
import type { AutomationEvent } from '#shared/domain/automations/evaluate-condition';
import { stepEmailId, stepEmailRequest, stepIdempotencyKey } from '#shared/usecases/automations/runs/step-email';
import { timeOfId } from '#shared/domain/ids';

const RUN = 'run_01JD8Z6X4Q2T9V3N5M7K1H0G8F';

const event: AutomationEvent = {
  name: 'user.created',
  email: 'ada@example.com',
  user_id: '42',
  data: { first_name: 'Ada', company: '<Acme & "Co">', plan: 'pro', seats: 5, manager: 'boss@acme.test', bad: 'not-an-address' },
};

const step = (over: Partial<SendEmailStep> = {}): SendEmailStep => ({
  key: 'welcome',
  type: 'send_email',
  to: ['{{event.email}}'],
  from: 'Acme <hello@acme.test>',
  subject: 'Hi',
  text: 'Hello',
  ...over,
});

function ok(result: ReturnType<typeof stepEmailRequest>) {
  if (!result.ok) throw new Error(`expected a request, got: ${result.error}`);
  return result;
}

describe('stepEmailRequest', () => {
  it('to defaults to the event email (absent or empty to)', () => {
    const { to: _to, ...withoutTo } = step();
    expect(ok(stepEmailRequest(withoutTo as SendEmailStep, event)).request.to).toEqual(['ada@example.com']);
    expect(ok(stepEmailRequest(step({ to: [] }), event)).request.to).toEqual(['ada@example.com']);
  });

  it('fills subject, html (escaped), text (as is), to, from and template variables', () => {
    const built = ok(
      stepEmailRequest(
        step({
          to: ['{{ event.data.manager }}', '{{event.email}}'],
          from: 'Acme <{{event.data.plan}}@acme.test>',
          subject: 'Hi {{ event.data.first_name }} of {{event.data.company}}',
          html: '<p>{{event.data.company}} has {{event.data.seats}} seats</p> {{unsubscribe_url}}',
          text: '{{event.data.company}} / {{event.user_id}} / {{event.name}}',
        }),
        event,
      ),
    );
    expect(built.request).toMatchObject({
      to: ['boss@acme.test', 'ada@example.com'],
      from: { email: 'pro@acme.test', name: 'Acme' },
      subject: 'Hi Ada of <Acme & "Co">',
      html: '<p>&lt;Acme &amp; &quot;Co&quot;&gt; has 5 seats</p> {{unsubscribe_url}}',
      text: '<Acme & "Co"> / 42 / user.created',
    });
    expect(built.missing).toEqual([]);

    const templated = ok(
      stepEmailRequest(
        {
          key: 'tpl',
          type: 'send_email',
          to: ['{{event.email}}'],
          template: {
            id: 'welcome',
            variables: {
              name: '{{event.data.first_name}}',
              company: '{{event.data.company}}',
              seats: 3,
              vip: true,
              intro: 'Dear {{event.data.first_name}}, {{name}}',
            },
          },
        },
        event,
      ),
    );
    expect(templated.request.template).toEqual({
      id: 'welcome',
      variables: { name: 'Ada', company: '<Acme & "Co">', seats: 3, vip: true, intro: 'Dear Ada, {{name}}' },
    });
    expect(templated.request.to).toEqual(['ada@example.com']);
  });

  it('CR and LF in a filled subject become spaces (one header line)', () => {
    const built = ok(
      stepEmailRequest(step({ subject: 'Hi {{event.data.first_name}}!' }), {
        ...event,
        data: { first_name: 'Ada\r\nBcc: evil@x.test\nMore\r' },
      }),
    );
    expect(built.request.subject).toBe('Hi Ada Bcc: evil@x.test More !');
  });

  it('values the event lacks fill as "" and are listed once each in missing', () => {
    const built = ok(
      stepEmailRequest(
        step({
          to: ['{{event.email}}', '{{event.data.manager_email}}'],
          subject: 'Hi {{event.data.last_name}}{{event.data.last_name}}',
          html: '<p>{{event.data.nickname}}</p>',
          text: '{{event.data.last_name}} {{event.data.nothing}}',
        }),
        { ...event, data: { ...event.data, nothing: null } },
      ),
    );
    expect(built.request.to).toEqual(['ada@example.com']);
    expect(built.request.subject).toBe('Hi ');
    expect(built.request.html).toBe('<p></p>');
    expect(built.request.text).toBe(' ');
    expect([...built.missing].sort()).toEqual([
      'event.data.last_name',
      'event.data.manager_email',
      'event.data.nickname',
      'event.data.nothing',
    ]);
  });

  it("no recipient left after filling is the step's error (naming the to it had), with the missing values", () => {
    const result = stepEmailRequest(step(), { ...event, email: null });
    expect(result).toEqual({
      ok: false,
      error: "no recipient: the step's to ({{event.email}}) is empty for this event",
      missing: ['event.email'],
    });
    const twoEmpty = stepEmailRequest(step({ to: ['{{event.data.a}}', ' {{event.data.b}} '] }), event);
    expect(twoEmpty).toEqual({
      ok: false,
      error: "no recipient: the step's to ({{event.data.a}},  {{event.data.b}} ) is empty for this event",
      missing: ['event.data.a', 'event.data.b'],
    });
  });

  it('an address that fills to something invalid is an error naming the field', () => {
    const to = stepEmailRequest(step({ to: ['{{event.data.bad}}'] }), event);
    expect(to.ok).toBe(false);
    expect(!to.ok && to.error).toMatch(/^invalid email for this event: to.0: "not-an-address" is not a valid email address/);
    const replyTo = stepEmailRequest(step({ reply_to: ['{{event.data.bad}}'] }), event);
    expect(!replyTo.ok && replyTo.error).toMatch(
      /^invalid email for this event: reply_to.0: "not-an-address" is not a valid email address/,
    );
    const subject = stepEmailRequest(step({ subject: '{{event.data.missing}}' }), event);
    expect(subject).toEqual({
      ok: false,
      error: 'invalid email for this event: subject: subject is required',
      missing: ['event.data.missing'],
    });
  });

  it("the step's email id: the same for every attempt, one per (run, step), time-ordered by the step's start", () => {
    const started = '2026-11-28T10:00:00.000Z';
    const id = stepEmailId(RUN, 'welcome', started);
    expect(id).toMatch(/^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(stepEmailId(RUN, 'welcome', started)).toBe(id);
    expect(stepEmailId(RUN, 'other', started)).not.toBe(id);
    expect(stepEmailId('run_01JD8Z6X4Q2T9V3N5M7K1H0G8G', 'welcome', started)).not.toBe(id);
    expect(timeOfId(id)).toBe(Date.parse(started));
    expect(timeOfId(stepEmailId(RUN, 'welcome', '2026-11-29T10:00:00.000Z'))).toBeGreaterThan(timeOfId(id));
  });

  it("the key a step's send was made under before 2026-11-28 holds the run id and the step key, with spaces", () => {
    expect(stepIdempotencyKey(RUN, 'welcome')).toBe(`automation step ${RUN} welcome`);
  });
});
