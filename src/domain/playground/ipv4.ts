/**
 * The `remoteAddress` strategy's address matching (reference §3.3): each entry of `IPs` matches by exact string
 * equality, or, for an IPv4 `address/prefix` entry, by CIDR containment of an IPv4 remote address. IPv6 entries only
 * match exactly. Parsing follows the lenient rules Unleash's `ip` package applies: an IPv4 address is four groups of
 * 1–3 digits, each taken modulo 256; a prefix that is not a number counts as 32; an entry without exactly one "/"
 * or with a prefix above 32 is not a range. Nothing here throws: what cannot be parsed simply does not match.
 */

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The address as an unsigned 32-bit integer, or -1 when the string is not in IPv4 form. */
export function parseIpv4(text: string): number {
  const m = IPV4.exec(text);
  if (m === null) return -1;
  return ((((parseInt(m[1], 10) & 0xff) << 24) | ((parseInt(m[2], 10) & 0xff) << 16)
    | ((parseInt(m[3], 10) & 0xff) << 8) | (parseInt(m[4], 10) & 0xff)) >>> 0);
}

/** One compiled entry of the `IPs` parameter. `network` is -1 when the entry can only match exactly. */
export interface AddressRule {
  exact: string;
  network: number;
  mask: number;
}

export function compileAddressRule(entry: string): AddressRule {
  const rule: AddressRule = { exact: entry, network: -1, mask: 0 };
  if (entry.includes(':')) return rule;
  const parts = entry.split('/');
  if (parts.length !== 2) return rule;
  const address = parseIpv4(parts[0]);
  if (address < 0) return rule;
  let prefix = parseInt(parts[1], 10);
  if (Number.isNaN(prefix) || prefix < 0) prefix = 32;
  if (prefix > 32) return rule;
  rule.mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  rule.network = (address & rule.mask) >>> 0;
  return rule;
}

/** Whether `remote` (with `remoteInt` = parseIpv4(remote)) matches the rule. */
export function matchesAddress(rule: AddressRule, remote: string, remoteInt: number): boolean {
  if (remote === rule.exact) return true;
  return rule.network >= 0 && remoteInt >= 0 && ((remoteInt & rule.mask) >>> 0) === rule.network;
}
