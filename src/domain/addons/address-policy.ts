import { isIP } from 'node:net';
import dns from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * Where addons may send (issue 11, safety): never to loopback, private, shared (CGNAT), link-local (cloud metadata
 * lives at 169.254.169.254 and fd00:ec2::254), unspecified, multicast, reserved or documentation addresses, unless the
 * operator allows it (ADDON_ALLOW_PRIVATE_URLS=true, for tests and receivers inside one's own network). Checked when
 * an addon is saved and again, for every connection, when a delivery is sent: the sender resolves the name itself
 * and connects only to an address this policy allows, so a name that changes its answer in between (DNS rebinding)
 * or a redirect to such an address gains nothing.
 *
 * Ranges are classified by ipaddr.js, which keeps IANA's special-purpose registries, rather than by a hand-kept list
 * (one missed the 6to4 and IPv4-translated spellings of 127.0.0.1): an address is allowed only when the library files
 * it under no name ('unicast'); every range it names, including any a later version adds, is refused.
 */

/**
 * The one boundary ipaddr.js does not draw: it calls every IPv6 address outside its named ranges 'unicast', but only
 * 2000::/3 is global unicast (RFC 4291 2.4). The rest is unassigned or IETF-reserved space, among it the deprecated
 * IPv4-compatible ::a.b.c.d (the URL parser turns [::127.0.0.1] into ::7f00:1). Every IPv4 range the former list
 * refused, documentation and benchmarking included, the library names itself, so IPv4 needs no supplement.
 */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
/**
 * ipaddr.js reads ::a.b.c.d as the IPv4-mapped ::ffff:a.b.c.d, where the socket API (inet_pton) reads the
 * IPv4-compatible ::a.b.c.d (::808:808 for ::8.8.8.8): outside global unicast, so the spelling is refused before the
 * library can take it for something else.
 */
const IPV4_COMPATIBLE = /^::\d+\.\d+\.\d+\.\d+(?:%.*)?$/;
/** NAT64's well-known prefix (RFC 6052): the IPv4 address is the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

const ipv4Allowed = (address: ipaddr.IPv4): boolean => address.range() === 'unicast';

/** The IPv4 address in the last 32 bits of an IPv6 address. */
function lastIPv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const [high, low] = address.parts.slice(6);
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function ipv6Allowed(address: ipaddr.IPv6): boolean {
  switch (address.range()) {
    case 'unicast':
      return address.match(GLOBAL_UNICAST);
    // IPv4-mapped ::ffff:a.b.c.d is the IPv4 address itself to a dual-stack socket, and a translator hands
    // IPv4-translated ::ffff:0:a.b.c.d to it: either is as safe as the IPv4 address it carries.
    case 'ipv4Mapped':
    case 'rfc6145':
      return ipv4Allowed(lastIPv4(address));
    // On an IPv6-only host, DNS64 answers 64:ff9b::a.b.c.d for every name with only a public IPv4 address, so
    // refusing the well-known prefix would stop all such deliveries; the translator reaches the embedded address,
    // which decides. The local-use 64:ff9b:1::/48 (RFC 8215) is refused: where the IPv4 address sits in it depends
    // on the prefix length the operator chose (RFC 6052 2.2), and one's own network is what the opt-in is for.
    case 'rfc6052':
      return address.match(NAT64_WELL_KNOWN) && ipv4Allowed(lastIPv4(address));
    // Everything else, 6to4 (2002::/16) and Teredo (2001::/32) included whatever IPv4 address they embed: both are
    // deprecated tunnels (RFC 7526; the public Teredo servers are gone), so no receiver needs one, and reaching one
    // goes through a tunnel to the embedded address (and a UDP port) that this policy would have to second-guess.
    default:
      return false;
  }
}

/** Whether an IP address (v4 or v6) is one addons may not reach. */
export function isRefusedAddress(address: string): boolean {
  // isIP admits only dotted-decimal IPv4 (ipaddr.js would also read 0x7f.1 or 0177.0.0.1 its own way): hosts come
  // here already normalised by the URL parser or from DNS, so any other spelling is not an address we connect to.
  const family = isIP(address);
  if (family === 6 && IPV4_COMPATIBLE.test(address)) return true;
  try {
    if (family === 4) return !ipv4Allowed(ipaddr.IPv4.parse(address));
    if (family === 6) return !ipv6Allowed(ipaddr.IPv6.parse(address));
  } catch {
    return true; // isIP takes zone ids ipaddr.js cannot read (fe80::1%eth0.5); an address we cannot classify is refused
  }
  return true; // not an address at all
}

/** Names that mean this machine or a cloud's metadata service whatever DNS says. */
const REFUSED_NAMES = /(^|\.)(localhost|localdomain|internal|local)$/i;

/** The host of a URL as a bare name or address (IPv6 without brackets, no trailing dot). */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');

export class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
}

/**
 * Save-time check of an addon URL: its host must not be a refused address or name, and none of the addresses the
 * name resolves to may be refused. A name that does not resolve (yet) is accepted: every send checks again.
 */
export async function checkAddonUrl(raw: string, lookupTimeoutMs = 2000): Promise<string | undefined> {
  const url = new URL(raw);
  const host = hostOf(url);
  if (isIP(host)) return isRefusedAddress(host) ? `${host} is a loopback, private, link-local or reserved address` : undefined;
  if (REFUSED_NAMES.test(host)) return `${host} names this machine or an internal service`;
  const addresses = await Promise.race([
    dns.promises.lookup(host, { all: true, verbatim: true }).catch(() => [] as dns.LookupAddress[]),
    new Promise<dns.LookupAddress[]>((resolve) => setTimeout(() => resolve([]), lookupTimeoutMs).unref()),
  ]);
  const bad = addresses.find((a) => isRefusedAddress(a.address));
  return bad ? `${host} resolves to ${bad.address}, a loopback, private, link-local or reserved address` : undefined;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that resolves the name and refuses the connection when any address it would use is
 * refused: the send-time check, applied to the very address the socket connects to.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  if (REFUSED_NAMES.test(hostname.replace(/\.$/, ''))) {
    callback(Object.assign(new RefusedAddressError(`${hostname} names this machine or an internal service`), { code: 'EADDRREFUSED' }), '');
    return;
  }
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => isRefusedAddress(a.address));
    if (bad || list.length === 0) {
      callback(Object.assign(new RefusedAddressError(`${hostname} resolves to ${bad?.address ?? 'nothing'}, which addons may not reach`), { code: 'EADDRREFUSED' }), '');
      return;
    }
    if (options.all) callback(null, list);
    else callback(null, list[0].address, list[0].family);
  });
}
