/** Record sets in <dataDir>/records.json survive a restart; memory-only emulators leave no files. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startDnsEmulator } from '#localstack/emulators/dns';
import { errorCode, resolverFor } from './harness';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'dns-emulator-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('records survive a restart with the same dataDir', async () => {
  const dataDir = path.join(dir, 'dns');
  const first = await startDnsEmulator({ dataDir });
  first.setRecords({ name: '_service.persist.test', type: 'TXT', values: ['token-1', 'token-2'], ttl: 30 });
  first.setRecords({ name: 'rp.persist.test', type: 'CNAME', values: ['bounce.provider.example'] });
  first.setRecords({ name: 'in.persist.test', type: 'MX', values: ['10 mx.provider.example'] });
  first.setRecords({ name: 'gone.persist.test', type: 'A', values: ['192.0.2.1'] });
  first.deleteRecords('gone.persist.test');
  const before = first.listRecords();
  await first.stop();

  // Written at once, atomically: only records.json (no temporary files) is left.
  expect(readdirSync(dataDir)).toEqual(['records.json']);
  const file = JSON.parse(readFileSync(path.join(dataDir, 'records.json'), 'utf8')) as { version: number; records: unknown[] };
  expect(file.version).toBe(1);
  expect(file.records).toHaveLength(3);

  const second = await startDnsEmulator({ dataDir });
  try {
    expect(second.listRecords()).toEqual(before);
    const resolver = resolverFor(second);
    expect(await resolver.resolveTxt('_service.persist.test')).toEqual([['token-1'], ['token-2']]);
    expect(await resolver.resolveCname('rp.persist.test')).toEqual(['bounce.provider.example']);
    expect(await errorCode(resolver.resolve4('gone.persist.test'))).toBe('ENOTFOUND');
  } finally {
    await second.stop();
  }
});

test('each change is on disk when setRecords/deleteRecords return (no stop needed)', async () => {
  const emu = await startDnsEmulator({ dataDir: dir });
  try {
    emu.setRecords({ name: 'now.persist.test', type: 'TXT', values: ['x'] });
    const read = (): unknown => JSON.parse(readFileSync(path.join(dir, 'records.json'), 'utf8'));
    expect(read()).toEqual({ version: 1, records: [{ name: 'now.persist.test', type: 'TXT', values: ['x'], ttl: 60 }] });
    emu.deleteRecords('now.persist.test', 'TXT');
    expect(read()).toEqual({ version: 1, records: [] });
  } finally {
    await emu.stop();
  }
});

test('a corrupt records.json makes start fail instead of silently losing records', async () => {
  writeFileSync(path.join(dir, 'records.json'), '{"version":1,"records":[{"name":"bad name","type":"TXT","values":["x"]}]}');
  await expect(startDnsEmulator({ dataDir: dir })).rejects.toThrow(/records\.json: invalid record set .*invalid label/);
  writeFileSync(path.join(dir, 'records.json'), '{not json');
  await expect(startDnsEmulator({ dataDir: dir })).rejects.toThrow();
});

test('a relative dataDir is refused; without dataDir nothing touches the disk', async () => {
  await expect(startDnsEmulator({ dataDir: 'relative/dns' })).rejects.toThrow(/absolute path/);
  const emu = await startDnsEmulator();
  emu.setRecords({ name: 'mem.persist.test', type: 'TXT', values: ['x'] });
  await emu.stop();
  expect(readdirSync(dir)).toEqual([]);
});
