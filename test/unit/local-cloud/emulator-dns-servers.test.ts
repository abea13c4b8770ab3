/** Where the local SES and ACM emulators read DNS (localstack/cloud/emulator-dns-servers.ts): what the functions read. */
import { emulatorDnsServers } from '#localstack/cloud/emulator-dns-servers';
import { serversFor } from '#localstack/emulators/dns-servers';

const EMULATOR = '127.0.0.1:5300';
const OWN = ['sandbox.mailservice.dev', 'mail.mailservice.dev'];

test('without DNS_RESOLVERS: the DNS emulator for every name', () => {
  for (const setting of [undefined, '', ' , ']) {
    const servers = emulatorDnsServers(setting, EMULATOR, OWN);
    expect(serversFor(servers, 'x._domainkey.example.com')).toEqual([EMULATOR]);
  }
});

test('with DNS_RESOLVERS: its servers, as the functions read them (the same parsing)', () => {
  const servers = emulatorDnsServers(' 10.0.0.2:53, 10.0.0.3 ', EMULATOR, OWN);
  expect(serversFor(servers, 's1._domainkey.example.com')).toEqual(['10.0.0.2:53', '10.0.0.3']);
  expect(serversFor(servers, '_abc.mta-sts.inbound.example.com')).toEqual(['10.0.0.2:53', '10.0.0.3']);
  // A name that only ends like an own zone is not in it.
  expect(serversFor(servers, 'notsandbox.mailservice.dev')).toEqual(['10.0.0.2:53', '10.0.0.3']);
});

test("with DNS_RESOLVERS: the local cloud's own names (sandbox sender, MAIL FROM host) still at its DNS emulator", () => {
  const servers = emulatorDnsServers('10.0.0.2:53', EMULATOR, OWN);
  expect(serversFor(servers, 'tok1._domainkey.sandbox.mailservice.dev')).toEqual([EMULATOR]);
  expect(serversFor(servers, 'Mail.Mailservice.Dev.')).toEqual([EMULATOR]);
});
