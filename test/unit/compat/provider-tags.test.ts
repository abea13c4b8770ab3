/** The compatible doors' one rule for tags, categories and metadata (shared/doors/compat/provider-tags.ts). */
import { sendRequestSchema } from '#shared/domain/emails/send-request';
import { labelTags, MAX_TAGS, pairTags, tagPart, tagsOverLimit } from '#shared/doors/compat/provider-tags';

describe("the doors' tag rule", () => {
  it('labels become tags of one name, several labels several tags; empty labels are dropped', () => {
    expect(labelTags('category', ['Password Reset', 'welcome', ' '])).toEqual([
      { name: 'category', value: 'Password_Reset' },
      { name: 'category', value: 'welcome' },
    ]);
  });

  it('key-value pairs become tags of their key', () => {
    expect(pairTags({ 'order id': 'A 17', user: 'jane@example.com' })).toEqual([
      { name: 'order_id', value: 'A_17' },
      { name: 'user', value: 'jane_example_com' },
    ]);
  });

  it('whatever it is given, the tags are ones the send request takes', () => {
    const tags = [...labelTags('tag', ['✓ done!', 'x'.repeat(400)]), ...pairTags({ '': '', é: '%' })];
    expect(tags.map((tag) => tagPart(tag.value))).toEqual(tags.map((tag) => tag.value));
    const parsed = sendRequestSchema.safeParse({ from: 'a@example.com', to: 'b@example.org', subject: 's', text: 't', tags });
    expect(parsed.success).toBe(true);
  });

  it('counts what is over the limit', () => {
    const tags = labelTags(
      'tag',
      Array.from({ length: MAX_TAGS + 2 }, (_, i) => `t${i}`),
    );
    expect(tagsOverLimit(tags)).toBe(2);
    expect(tagsOverLimit(tags.slice(0, MAX_TAGS))).toBe(0);
  });
});
