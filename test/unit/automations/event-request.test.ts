/** The POST /events body: aliases, who the event is about, data limits, dry-run pairing, unknown fields. */
import { eventRequestSchema, eventSubject, MAX_EVENT_DATA_BYTES } from '#shared/domain/automations/event-request';

const fields = (body: unknown) => {
  const parsed = eventRequestSchema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
};

describe('POST /events body', () => {
  it('takes name, or type as its alias (name wins), and normalises the rest', () => {
    expect(eventRequestSchema.parse({ name: 'user.created', email: ' Ann@Example.COM ', data: { plan: 'pro' } })).toEqual({
      name: 'user.created',
      user_id: null,
      email: 'ann@example.com',
      data: { plan: 'pro' },
      dry_run: false,
      automation_id: null,
    });
    expect(eventRequestSchema.parse({ type: 'signup' }).name).toBe('signup');
    expect(eventRequestSchema.parse({ name: 'a', type: 'b' }).name).toBe('a');
  });

  it('refuses a missing or malformed name, a bad email or user_id, and unknown fields, naming each', () => {
    expect(fields({})).toEqual(['name']);
    expect(fields({ name: 'has space' })).toEqual(['name']);
    expect(fields({ name: 'x'.repeat(101) })).toEqual(['name']);
    expect(fields({ name: 'a', email: 'not-an-address' })).toEqual(['email']);
    expect(fields({ name: 'a', user_id: ' padded' })).toEqual(['user_id']);
    expect(fields({ name: 'a', user_id: 'u'.repeat(257) })).toEqual(['user_id']);
    expect(fields({ name: 'a', payload: {} })).toEqual(['payload']);
    expect(fields({ name: 'a', data: [1, 2] })).toEqual(['data']);
  });

  it('refuses data over the size or depth limit (a 1 MB payload is a 400 naming data)', () => {
    expect(fields({ name: 'a', data: { blob: 'x'.repeat(MAX_EVENT_DATA_BYTES) } })).toEqual(['data']);
    expect(fields({ name: 'a', data: { blob: 'x'.repeat(1024 * 1024) } })).toEqual(['data']);
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 10; i++) deep = { next: deep };
    expect(fields({ name: 'a', data: deep })).toEqual(['data']);
    expect(fields({ name: 'a', data: { blob: 'x'.repeat(MAX_EVENT_DATA_BYTES - 20) } })).toEqual([]);
  });

  it('dry_run needs automation_id and automation_id needs dry_run', () => {
    expect(fields({ name: 'a', dry_run: true })).toEqual(['automation_id']);
    expect(fields({ name: 'a', automation_id: 'auto_01JD0000000000000000000000' })).toEqual(['dry_run']);
    expect(fields({ name: 'a', dry_run: true, automation_id: 'nope' })).toEqual(['automation_id']);
    expect(eventRequestSchema.parse({ name: 'a', dry_run: true, automation_id: 'auto_01JD0000000000000000000000' })).toMatchObject({
      dry_run: true,
      automation_id: 'auto_01JD0000000000000000000000',
    });
  });

  it('an event is about its user_id, else its email, else nobody', () => {
    expect(eventSubject({ user_id: 'u1', email: 'a@b.test' })).toBe('user:u1');
    expect(eventSubject({ user_id: null, email: 'a@b.test' })).toBe('email:a@b.test');
    expect(eventSubject({ user_id: null, email: null })).toBeNull();
  });
});
