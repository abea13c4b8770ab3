/**
 * The emulator's query log (docs/local-cloud/dns.md, "Query log"): every question asked, found or not,
 * listed for a name and the names below it, oldest first, only the last QUERY_LOG_SIZE kept.
 */
import { startDnsEmulator, type DnsEmulator } from '#localstack/emulators/dns';
import { QUERY_LOG_SIZE, QueryLog } from '#localstack/emulators/dns/query-log';
import { errorCode, resolverFor } from './harness';

let emu: DnsEmulator;
beforeAll(async () => {
  emu = await startDnsEmulator();
  emu.setRecords({ name: 'mail.logged.example', type: 'MX', values: ['10 mx.logged.example'] });
});
afterAll(() => emu.stop());

describe('the query log', () => {
  it('keeps each question asked, answered or not, for the name asked and the names below it', async () => {
    const resolver = resolverFor(emu);
    await resolver.resolveMx('Mail.Logged.Example');
    expect(await errorCode(resolver.resolve4('missing.logged.example'))).toBe('ENOTFOUND');
    expect(emu.queries('logged.example').map(({ name, type }) => `${type} ${name}`)).toEqual([
      'MX mail.logged.example',
      'A missing.logged.example',
    ]);
    expect(emu.queries('mail.logged.example')).toHaveLength(1);
    expect(emu.queries('other.example')).toEqual([]);
    // A name merely ending like another is not below it.
    expect(emu.queries('ogged.example')).toEqual([]);
  });

  it(`keeps only the last ${QUERY_LOG_SIZE} questions`, () => {
    const log = new QueryLog();
    for (let i = 0; i <= QUERY_LOG_SIZE; i++) log.record(`q${i}.example`, 'A', 'udp');
    const kept = log.queries();
    expect(kept).toHaveLength(QUERY_LOG_SIZE);
    expect(kept[0]!.name).toBe('q1.example');
    expect(kept.at(-1)!.name).toBe(`q${QUERY_LOG_SIZE}.example`);
  });
});
