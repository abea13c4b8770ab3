/**
 * The docs test's reading of a page (docs/docs-examples.md): commands split where bash sees them end,
 * answers shown as `# -> ...` attached to their command, and the answer shapes matched as documented.
 */
import { answerMismatch, parseShownAnswer } from '../support/docs/answer';
import { shellCommands } from '../support/docs/commands';
import { codeBlocks } from '../support/docs/markdown';
import { isRead } from '../support/docs/run-page';

const matches = (shown: string, stdout: string, httpStatus?: number) => answerMismatch(parseShownAnswer(shown), { stdout, httpStatus });

describe('shown answers', () => {
  it('checks the keys shown, allows others, and reads ... as any value, other members or elements', () => {
    expect(matches('{"id": "msg_01...", "status": "sent"}', '{"id":"msg_01ABC","status":"sent","extra":1}')).toBeNull();
    expect(matches('{"id": "msg_01...", "status": "sent"}', '{"id":"msg_01ABC","status":"queued"}')).toBe(
      '$.status: expected "sent", got "queued"',
    );
    expect(matches('{"email": {"sent_at": "...", ...}}', '{"email":{"sent_at":null}}')).toBeNull();
    expect(matches('{"email": {"sent_at": "..."}}', '{"email":{}}')).toBe('$.email.sent_at: missing');
    expect(matches('{"records": [...]}', '{"records":[]}')).toBeNull();
    expect(matches('[{"a": 1}, ...]', '[{"a":2},{"a":1}]')).toBeNull();
    expect(matches('[{"a": 1}]', '[{"a":1},{"a":2}]')).toMatch(/expected 1 element\(s\), got 2/);
    expect(
      matches('{"body": "{\\"type\\":\\"email.delivered\\",...}"}', '{"body":"{\\"type\\":\\"email.delivered\\",\\"x\\":1}"}'),
    ).toBeNull();
    expect(matches('{"a": ..., "b": [..., 2]}   (a note after the shape)', '{"a":null,"b":[1,2,3]}')).toBeNull();
    expect(matches('{"a": ..., "b": [..., 2]}', '{"b":[2]}')).toBe('$.a: missing');
    expect(() => parseShownAnswer('{"a": }')).toThrow(/cannot read the answer shown/);
  });

  it('reads a leading HTTP status only before a shape, ... or nothing; a line of text otherwise', () => {
    expect(matches('201 {"ok": true}', '{"ok":true}', 201)).toBeNull();
    expect(matches('201 {"ok": true}', '{"ok":true}', 200)).toBe('expected HTTP 201, got 200');
    expect(matches('404', '', 404)).toBeNull();
    expect(matches('201 ...<Name>example.net.</Name>...', '<?xml?><R><Name>example.net.</Name></R>', 201)).toBeNull();
    expect(matches('250 2.0.0 Ok: queued as msg_01...', '250 2.0.0 Ok: queued as msg_01XYZ')).toBeNull();
    expect(matches('... <~  250 2.0.0 Ok: queued as msg_01...', ' -> DATA\n<~  250 2.0.0 Ok: queued as msg_01XYZ\n')).toBeNull();
    expect(matches('... <~  250 2.0.0 Ok', '<~  451 4.3.0 try later')).toMatch(/no line of the output matches/);
  });

  it('matches a JSON line of a command that prints more than its answer', () => {
    expect(matches('[["service-verification=abc"]]', '[\n  \'a TXT\'\n]\n[["service-verification=abc"]]\n1')).toBeNull();
  });
});

describe('commands of a shell block', () => {
  it('ends a command where bash does (quotes, continuations, loops, here-documents) and attaches answers', () => {
    const block = [
      '# a comment',
      "curl -s http://x -d '{",
      '  "a": 1}\'   # -> {"a": 1}',
      'while read -r line; do',
      '  echo "$line"',
      'done < file',
      "cat > f.txt <<'EOF'",
      'EOF is not here yet',
      'EOF',
      'echo "$X" \\',
      '  | jq -c .',
      '# -> {"b": 2,',
      '#      "c": 3}',
      '# 2. the next step',
      'true',
    ].join('\n');
    const commands = shellCommands(block, 10, 'page.md');
    expect(commands.map((c) => [c.line, c.answer])).toEqual([
      [11, '{"a": 1}'],
      [13, undefined],
      [16, undefined],
      [19, '{"b": 2, "c": 3}'],
      [24, undefined],
    ]);
    expect(() => shellCommands("echo 'never closed", 1, 'page.md')).toThrow(/page.md:1: this command never ends/);
  });

  it('repeats only reads', () => {
    expect(isRead('curl -s http://x/emails/$ID -H "Authorization: Bearer $KEY"   # -> {"a": 1}')).toBe(true);
    expect(isRead('curl -s http://x/_local/webhooks | jq -c .requests')).toBe(true);
    expect(isRead("curl -s http://x/emails -d '{}'")).toBe(false);
    expect(isRead('curl -s -X DELETE http://x/y')).toBe(false);
    expect(isRead('curl -s http://x > out.json')).toBe(false);
    expect(isRead('npm run admin')).toBe(false);
  });
});

describe('code blocks of a page', () => {
  it('reads fences, their language and a docs-test mark on the line before', () => {
    const page = [
      'text',
      '<!-- docs-test: skip (needs AWS) -->',
      '```bash',
      'cdk deploy',
      '```',
      '',
      '   ```sh',
      '   echo hi',
      '   ```',
      '<!-- docs-test: file a.mjs -->',
      '```js',
      'x',
      '```',
    ].join('\n');
    expect(codeBlocks(page, 'p.md')).toEqual([
      { line: 3, lang: 'bash', text: 'cdk deploy', mark: { kind: 'skip', reason: 'needs AWS' } },
      { line: 7, lang: 'sh', text: 'echo hi', mark: undefined },
      { line: 11, lang: 'js', text: 'x', mark: { kind: 'file', name: 'a.mjs' } },
    ]);
    expect(() => codeBlocks('<!-- docs-test: maybe -->\n```sh\nx\n```', 'p.md')).toThrow(/p.md:1: unknown docs-test mark/);
  });
});
