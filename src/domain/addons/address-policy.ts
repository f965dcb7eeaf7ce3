import { BlockList, isIP } from 'node:net';
import dns from 'node:dns';

/**
 * Where addons may send (issue 11, safety): never to loopback, private, shared (CGNAT), link-local (cloud metadata
 * lives at 169.254.169.254 and fd00:ec2::254), unspecified, multicast, reserved or documentation addresses, unless the
 * operator allows it (ADDON_ALLOW_PRIVATE_URLS=true, for tests and receivers inside one's own network). Checked when
 * an addon is saved and again, for every connection, when a delivery is sent: the sender resolves the name itself
 * and connects only to an address this policy allows, so a name that changes its answer in between (DNS rebinding)
 * or a redirect to such an address gains nothing.
 */
const refused = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) refused.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 96], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) refused.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address (v4 or v6) is one addons may not reach. */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refused.check(address, 'ipv4');
  // BlockList checks an IPv4-mapped IPv6 address (::ffff:7f00:1) against the IPv4 rules too.
  if (family === 6) return refused.check(address, 'ipv6');
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
