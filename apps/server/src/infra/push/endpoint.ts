import { isIP } from 'node:net';

/**
 * Whether the server may send to a subscription's endpoint. The server POSTs to the URL a member
 * gives, so in production only a named https host is taken (push services are: Mozilla's, Google's,
 * Apple's, Microsoft's): no address literal, no localhost, nothing on this machine or its network by
 * number. Elsewhere (the tests' stand-in push service listens on 127.0.0.1) any https URL.
 */
export function isPushServiceUrl(endpoint: string, production: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  if (!production) return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) === 0 && host !== 'localhost' && !host.endsWith('.localhost') && host.includes('.');
}
