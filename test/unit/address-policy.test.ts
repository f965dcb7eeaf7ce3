import { describe, expect, it } from '@jest/globals';
import ipaddr from 'ipaddr.js';
import { checkAddonUrl, guardedLookup, isRefusedAddress } from '../../src/domain/addons/address-policy';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type RangeTable = Record<string, [Address, number] | [Address, number][]>;

/**
 * ipaddr.js keeps the ranges it names on each class's prototype (its typings do not declare them). The sweep reads
 * them from there, so a range a newer version adds is swept (and must be refused) without touching this file.
 */
const tableOf = (klass: typeof ipaddr.IPv4 | typeof ipaddr.IPv6): RangeTable => (klass.prototype as unknown as { SpecialRanges: RangeTable }).SpecialRanges;

/**
 * For every range name, the first and last address of each of its subnets that the library files under that name
 * (a subnet's edge can belong to a range listed earlier: 2001::/23 'reserved' starts with 2001::/32 'teredo').
 */
function samples(klass: typeof ipaddr.IPv4 | typeof ipaddr.IPv6): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, entry] of Object.entries(tableOf(klass))) {
    const subnets = (Array.isArray(entry[0]) ? entry : [entry]) as [Address, number][];
    const found: string[] = [];
    for (const [network, prefix] of subnets) {
      const last = klass.broadcastAddressFromCIDR(`${network.toString()}/${prefix}`);
      for (const address of [network, last]) if (address.range() === name) found.push(address.toString());
    }
    // Every name gets at least one address, or the sweep would silently skip it.
    expect([name, found.length > 0]).toEqual([name, true]);
    for (const address of found) out.push([name, address]);
  }
  return out;
}

/** The two 16-bit groups of an IPv4 address, as they sit in an IPv6 address. */
function groups(v4: string, xor = 0): [string, string] {
  const o = ipaddr.IPv4.parse(v4).octets.map((b) => b ^ xor);
  return [((o[0] << 8) | o[1]).toString(16), ((o[2] << 8) | o[3]).toString(16)];
}

/** Every IPv6 spelling that carries an IPv4 address, as [form, address]. */
function embeddings(v4: string): [string, string][] {
  const [hi, lo] = groups(v4);
  const [cHi, cLo] = groups(v4, 0xff); // a Teredo client address is stored inverted
  const [pHi, pLo] = groups('93.184.216.34');
  const [pcHi, pcLo] = groups('93.184.216.34', 0xff);
  return [
    ['IPv4-mapped, dotted', `::ffff:${v4}`],
    ['IPv4-mapped, hex', `::ffff:${hi}:${lo}`],
    ['IPv4-mapped, written out', `0:0:0:0:0:ffff:${hi}:${lo}`],
    ['IPv4-translated, dotted', `::ffff:0:${v4}`],
    ['IPv4-translated, hex', `::ffff:0:${hi}:${lo}`],
    ['IPv4-compatible (deprecated)', `::${v4}`],
    ['6to4', `2002:${hi}:${lo}::`],
    ['6to4 with subnet and host', `2002:${hi}:${lo}:1:2:3:4:5`],
    ['Teredo server', `2001:0:${hi}:${lo}:0:ffff:${pcHi}:${pcLo}`],
    ['Teredo client', `2001:0:${pHi}:${pLo}:0:ffff:${cHi}:${cLo}`],
    ['Teredo server and client', `2001:0:${hi}:${lo}:8000:ffff:${cHi}:${cLo}`],
    ['NAT64 well-known prefix, dotted', `64:ff9b::${v4}`],
    ['NAT64 well-known prefix, hex', `64:ff9b::${hi}:${lo}`],
    ['NAT64 local-use, /96', `64:ff9b:1::${hi}:${lo}`],
    // RFC 6052 2.2: under a /48 prefix the address takes bits 48-63 and 72-87, around the zero "u" octet.
    ['NAT64 local-use, /48', `64:ff9b:1:${hi}:${(parseInt(lo, 16) >> 8).toString(16)}:${((parseInt(lo, 16) & 0xff) << 8).toString(16)}::`],
  ];
}

describe('address policy: ranges named by ipaddr.js', () => {
  it.each(samples(ipaddr.IPv4))('IPv4 %s: %s is refused', (_name, address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  // The ranges that carry an IPv4 address (ipv4Mapped, rfc6145, rfc6052) are sampled at their edges, which embed
  // 0.0.0.0 and 255.255.255.255, both refused; the public addresses they may carry are allowed further down.
  it.each(samples(ipaddr.IPv6))('IPv6 %s: %s is refused', (_name, address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it('the ranges the former hand-written list refused stay refused, at both edges', () => {
    const former = [
      '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
      '192.0.2.0/24', '192.88.99.0/24', '192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24',
      '224.0.0.0/4', '240.0.0.0/4',
      '::/96', '::1/128', '64:ff9b::/96', '64:ff9b:1::/48', '100::/64', '2001::/23', '2001:db8::/32', 'fc00::/7',
      'fe80::/10', 'fec0::/10', 'ff00::/8',
    ];
    const allowed = former.flatMap((cidr) => {
      const [network] = ipaddr.parseCIDR(cidr);
      const klass = network.kind() === 'ipv4' ? ipaddr.IPv4 : ipaddr.IPv6;
      return [network.toString(), klass.broadcastAddressFromCIDR(cidr).toString()];
    }).filter((address) => !isRefusedAddress(address));
    expect(allowed).toEqual([]);
  });

  it('IPv6 the library calls unicast is allowed only inside global unicast 2000::/3', () => {
    for (const address of ['::7f00:1', '::808:808', '::2', '100:0:0:1::1', '200::1', '4000::1', '8000::1', 'e000::1', 'fe00::1', '1fff:ffff::1']) {
      expect([address, ipaddr.parse(address).range(), isRefusedAddress(address)]).toEqual([address, 'unicast', true]);
    }
  });

  it('the dotted IPv4-compatible spelling is refused although ipaddr.js reads ::8.8.8.8 as IPv4-mapped', () => {
    expect(ipaddr.parse('::8.8.8.8').range()).toBe('ipv4Mapped');
    expect(['::8.8.8.8', '::93.184.216.34', '::8.8.8.8%eth0'].map(isRefusedAddress)).toEqual([true, true, true]);
  });
});

describe('address policy: IPv6 spellings of an IPv4 address', () => {
  it.each(['2002:7f00:1::', '::ffff:0:7f00:1'])('%s (loopback) is refused', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  const cases = ['127.0.0.1', '10.0.0.1', '169.254.169.254', '192.168.1.1', '0.0.0.0', '100.64.0.1', '172.16.5.4', '224.0.0.1', '255.255.255.255']
    .flatMap((v4) => embeddings(v4).map(([form, address]) => [v4, form, address] as const));
  it.each(cases)('%s as %s (%s) is refused', (_v4, _form, address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it('a public IPv4 address is allowed as mapped, translated and NAT64 well-known prefix, refused in 6to4, Teredo and local-use NAT64', () => {
    const verdicts = Object.fromEntries(embeddings('93.184.216.34').map(([form, address]) => [form, isRefusedAddress(address)]));
    expect(verdicts).toEqual({
      'IPv4-mapped, dotted': false,
      'IPv4-mapped, hex': false,
      'IPv4-mapped, written out': false,
      'IPv4-translated, dotted': false,
      'IPv4-translated, hex': false,
      'IPv4-compatible (deprecated)': true,
      '6to4': true,
      '6to4 with subnet and host': true,
      'Teredo server': true,
      'Teredo client': true,
      'Teredo server and client': true,
      'NAT64 well-known prefix, dotted': false,
      'NAT64 well-known prefix, hex': false,
      'NAT64 local-use, /96': true,
      'NAT64 local-use, /48': true,
    });
  });
});

describe('address policy: what stays allowed, and what is not an address', () => {
  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:2800:220:1::1', '2a00:1450:4001:80b::200e', '2001:4860:4860::8888'])('%s is allowed', (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });

  it.each(['example.com', '0x7f000001', '2130706433', '127.1', '0177.0.0.1', 'fe80::1%eth0.5', ''])('%j is not an address and is refused', (text) => {
    expect(isRefusedAddress(text)).toBe(true);
  });
});

describe('addon URLs: every spelling the URL parser accepts', () => {
  it.each([
    'http://[2002:7f00:1::]:9/hook', 'http://[::ffff:0:7f00:1]:9/hook', 'http://2130706433/', 'http://0x7f.1/',
    'http://0177.0.0.1/', 'http://127.1/', 'http://127.0.0.1./', 'http://[::127.0.0.1]/', 'http://[::ffff:127.0.0.1]/',
    'http://[0:0:0:0:0:ffff:7f00:1]/', 'http://[64:ff9b::a9fe:a9fe]/latest/meta-data', 'http://0xa9.0xfe.0xa9.0xfe/',
    'http://[2001:0:7f00:1::]/',
  ])('%s is refused when saved', async (url) => {
    expect(await checkAddonUrl(url)).toMatch(/is a loopback, private, link-local or reserved address$/);
  });

  it.each(['http://93.184.216.34/hook', 'http://[2606:2800:220:1::1]/hook', 'http://[::ffff:93.184.216.34]/hook'])('%s is accepted', async (url) => {
    expect(await checkAddonUrl(url)).toBeUndefined();
  });

  it.each(['2002:7f00:1::', '::ffff:0:7f00:1'])('the connect-time lookup refuses %s', async (address) => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup(address, {}, (e) => resolve(e)));
    expect([err?.name, err?.code]).toEqual(['RefusedAddressError', 'EADDRREFUSED']);
  });
});
