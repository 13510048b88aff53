import { BlockList, isIP } from 'node:net';

/**
 * Where the server may send a request to a URL someone else chose (an APDS subscriber's endpoint):
 * not to this machine, its network or the cloud's metadata service (SSRF). An address is private
 * when it is in one of the special-purpose ranges of IPv4 and IPv6 (loopback, the RFC 1918
 * networks, carrier-grade NAT, link-local, unique-local, multicast, documentation, reserved);
 * an IPv6 address that carries an IPv4 one (::ffff:a.b.c.d) is judged by that one.
 */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

/** Whether an IP address (v4 or v6, no brackets) is one the public Internet routes to. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !PRIVATE.check(address, 'ipv4');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  return !PRIVATE.check(address, 'ipv6');
}

/**
 * Whether a URL may be a webhook's endpoint: http or https without credentials; with `privateOk`
 * false (production), https only, and its host a name (not localhost) or a public address literal.
 * A name's addresses are checked again when it is called (publicLookup in the sender), since DNS
 * can answer differently then.
 */
export function isWebhookUrl(value: string, privateOk: boolean): 'ok' | 'invalid' | 'private' {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'invalid';
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || !url.hostname)
    return 'invalid';
  if (privateOk) return 'ok';
  if (url.protocol !== 'https:') return 'private';
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host) !== 0) return isPublicAddress(host) ? 'ok' : 'private';
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) return 'private';
  return 'ok';
}
