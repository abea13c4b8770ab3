/** SSRF guard: every forbidden range (IPv4, IPv6, embedded IPv4) and the URL's syntactic check. */
import { checkWebhookUrl, classifyAddress, isForbiddenAddress, parseIPv6 } from '#shared/domain/webhooks/ssrf';

const LOOPBACK_OK = { allowLoopback: true };
const PROD = { allowLoopback: false };

describe('isForbiddenAddress', () => {
  // [address, category]; 'public' ones are allowed.
  const table: [string, string][] = [
    // 0.0.0.0/8
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['1.0.0.0', 'public'],
    // 10/8
    ['9.255.255.255', 'public'],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['11.0.0.0', 'public'],
    // 100.64/10
    ['100.63.255.255', 'public'],
    ['100.64.0.0', 'shared'],
    ['100.100.100.200', 'shared'],
    ['100.127.255.255', 'shared'],
    ['100.128.0.0', 'public'],
    // 127/8
    ['126.255.255.255', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['128.0.0.0', 'public'],
    // 169.254/16
    ['169.253.255.255', 'public'],
    ['169.254.0.0', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.255.255', 'link-local'],
    ['169.255.0.0', 'public'],
    // 172.16/12
    ['172.15.255.255', 'public'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.0', 'public'],
    // 192.0.0/24
    ['191.255.255.255', 'public'],
    ['192.0.0.0', 'special'],
    ['192.0.0.192', 'special'],
    ['192.0.0.255', 'special'],
    ['192.0.1.0', 'public'],
    // 192.168/16
    ['192.167.255.255', 'public'],
    ['192.168.0.0', 'private'],
    ['192.168.255.255', 'private'],
    ['192.169.0.0', 'public'],
    // 198.18/15
    ['198.17.255.255', 'public'],
    ['198.18.0.0', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.20.0.0', 'public'],
    // 224/4, 240/4, broadcast
    ['223.255.255.255', 'public'],
    ['224.0.0.0', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.0', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    // ordinary public IPv4
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    // IPv6 specials
    ['::', 'unspecified'],
    ['0:0:0:0:0:0:0:0', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::2', 'unspecified'], // IPv4-compatible ::0.0.0.2, judged as 0.0.0.2
    // fc00::/7
    ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
    ['fc00::', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local'],
    ['fd00:ec2::254', 'metadata'],
    ['fd00:ec2:0:0:0:0:0:254', 'metadata'],
    ['fd00:ec2::253', 'unique-local'],
    ['fe00::', 'public'],
    // fe80::/10 (with and without a zone)
    ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
    ['fe80::', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local'],
    ['fec0::1', 'site-local'],
    // ff00::/8
    ['ff00::', 'multicast'],
    ['ff02::1', 'multicast'],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
    // IPv4-mapped, both notations, judged by the IPv4
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['::FFFF:A9FE:A9FE', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:172.16.0.0', 'private'],
    ['::ffff:172.15.255.255', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['::ffff:0808:0808', 'public'],
    // IPv4-compatible (deprecated) and IPv4-translated
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::192.168.1.1', 'private'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['::ffff:0:8.8.8.8', 'public'],
    // NAT64 64:ff9b::/96, judged by the IPv4; local-use 64:ff9b:1::/48 refused
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::169.254.169.254', 'metadata'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', 'public'],
    ['64:ff9b:1::a00:1', 'private'],
    // 6to4, judged by the IPv4
    ['2002:a9fe:a9fe::', 'metadata'],
    ['2002:0808:0808::1', 'public'],
    // ordinary public IPv6
    ['2001:4860:4860::8888', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['[2606:4700:4700::1111]', 'public'],
    // not addresses: forbidden (fail closed)
    ['', 'invalid'],
    ['localhost', 'invalid'],
    ['1.2.3', 'invalid'],
    ['1.2.3.256', 'invalid'],
    ['010.0.0.1', 'invalid'],
    ['0x7f.0.0.1', 'invalid'],
    ['1::2::3', 'invalid'],
    ['1:2:3:4:5:6:7:8:9', 'invalid'],
    ['1:2:3:4:5:6:7', 'invalid'],
    ['1:2:3:4:5:6:7::8', 'invalid'],
    ['12345::', 'invalid'],
    ['::ffff:1.2.3.999', 'invalid'],
    ['g::1', 'invalid'],
  ];

  test.each(table)('%s is %s', (address, category) => {
    expect(classifyAddress(address)).toBe(category);
    expect(isForbiddenAddress(address)).toBe(category !== 'public');
  });

  test('the local cloud policy admits loopback only', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1']) {
      expect(isForbiddenAddress(address, LOOPBACK_OK)).toBe(false);
      expect(isForbiddenAddress(address, PROD)).toBe(true);
    }
    for (const address of ['10.0.0.1', '192.168.1.1', '169.254.169.254', 'fd00:ec2::254', '0.0.0.0', '::', 'fe80::1', 'x']) {
      expect(isForbiddenAddress(address, LOOPBACK_OK)).toBe(true);
    }
    expect(isForbiddenAddress('8.8.8.8', LOOPBACK_OK)).toBe(false);
  });

  test('parseIPv6 expands compression and dotted quads', () => {
    expect(parseIPv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    expect(parseIPv6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6('1:2:3:4:5:6:1.2.3.4')).toEqual([1, 2, 3, 4, 5, 6, 0x102, 0x304]);
    expect(parseIPv6('1:2:3:4:5:6:7:1.2.3.4')).toBeNull();
  });
});

describe('checkWebhookUrl', () => {
  const ok = (url: string, policy = PROD) => {
    const result = checkWebhookUrl(url, policy);
    if (!result.ok) throw new Error(`${url} refused: ${result.reason}`);
    return result.url;
  };
  const reason = (url: string, policy = PROD) => {
    const result = checkWebhookUrl(url, policy);
    if (result.ok) throw new Error(`${url} accepted`);
    return result.reason;
  };

  test('accepts public https URLs, any port, path and query', () => {
    expect(ok('https://hooks.example.com/webhooks/mail?x=1').href).toBe('https://hooks.example.com/webhooks/mail?x=1');
    expect(ok('https://hooks.example.com:8443/').port).toBe('8443');
    expect(ok('https://8.8.8.8/hook').hostname).toBe('8.8.8.8');
    expect(ok('https://[2606:4700:4700::1111]/hook').hostname).toBe('[2606:4700:4700::1111]');
    expect(ok('https://example.com./hook').hostname).toBe('example.com.');
  });

  test('https only', () => {
    for (const url of ['http://hooks.example.com/', 'ftp://hooks.example.com/', 'file:///etc/passwd', 'gopher://x.example.com/']) {
      expect(reason(url)).toBe('the URL must use https');
    }
  });

  test('not a URL', () => {
    for (const url of ['', 'hooks.example.com/path', 'https://', 'https://exa mple.com/']) {
      expect(reason(url)).toBe('not a valid URL');
    }
  });

  test('no credentials', () => {
    expect(reason('https://user:pass@hooks.example.com/')).toBe('the URL must not contain credentials');
    expect(reason('https://user@hooks.example.com/')).toBe('the URL must not contain credentials');
    expect(reason('https://:pass@hooks.example.com/', LOOPBACK_OK)).toBe('the URL must not contain credentials');
  });

  test('IP-literal hosts are judged, including the URL parser’s exotic IPv4 spellings', () => {
    expect(reason('https://10.0.0.1/')).toBe('the host is a forbidden address (private)');
    expect(reason('https://192.168.1.10:8443/')).toBe('the host is a forbidden address (private)');
    expect(reason('https://169.254.169.254/latest/meta-data/')).toBe('the host is a forbidden address (metadata)');
    expect(reason('https://[fd00:ec2::254]/')).toBe('the host is a forbidden address (metadata)');
    expect(reason('https://[::ffff:169.254.169.254]/')).toBe('the host is a forbidden address (metadata)');
    expect(reason('https://[::1]/')).toBe('the host is a forbidden address (loopback)');
    expect(reason('https://127.0.0.1/')).toBe('the host is a forbidden address (loopback)');
    expect(reason('https://2130706433/')).toBe('the host is a forbidden address (loopback)'); // 127.0.0.1
    expect(reason('https://0x7f.1/')).toBe('the host is a forbidden address (loopback)');
    expect(reason('https://0177.0.0.1/')).toBe('the host is a forbidden address (loopback)');
    expect(reason('https://0/')).toBe('the host is a forbidden address (unspecified)');
    expect(reason('https://[fe80::1]/')).toBe('the host is a forbidden address (link-local)');
  });

  test('localhost and *.localhost only with allowLoopback; loopback IPs likewise', () => {
    for (const url of ['https://localhost/', 'https://localhost:8443/x', 'https://LOCALHOST./', 'https://api.localhost/']) {
      expect(reason(url)).toBe('the host is a loopback name');
      expect(ok(url, LOOPBACK_OK)).toBeInstanceOf(URL);
    }
    expect(ok('https://127.0.0.1:4443/hook', LOOPBACK_OK).port).toBe('4443');
    expect(ok('https://[::1]:4443/hook', LOOPBACK_OK).port).toBe('4443');
  });

  test('allowLoopback still refuses private and metadata targets and internal names', () => {
    expect(reason('https://10.0.0.1/', LOOPBACK_OK)).toBe('the host is a forbidden address (private)');
    expect(reason('https://169.254.169.254/', LOOPBACK_OK)).toBe('the host is a forbidden address (metadata)');
    expect(reason('https://metadata.google.internal/', LOOPBACK_OK)).toBe('the host is an internal name');
  });

  test('internal-looking and single-label names are refused', () => {
    for (const url of [
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://ip-10-0-0-1.ec2.internal/',
      'https://printer.local/',
      'https://nas.localdomain/',
      'https://router.home.arpa/',
      'https://1.0.0.127.in-addr.arpa/',
      'https://wiki.corp/',
    ]) {
      expect(reason(url)).toBe('the host is an internal name');
    }
    for (const url of ['https://metadata/', 'https://intranet:8443/']) {
      expect(reason(url)).toBe('the host must be a fully qualified domain name');
    }
  });
});
