import { describe, expect, it } from 'vitest';
import { isPublicAddress, isWebhookUrl } from './public-address.ts';

// The SSRF rules of an APDS webhook's endpoint (docs/apds.md#webhooks).
describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8', true],
    ['93.184.216.34', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['127.8.9.10', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['172.32.0.1', true],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:8.8.8.8', true],
    ['not an address', false],
  ])('%s → %s', (address, expected) => expect(isPublicAddress(address)).toBe(expected));
});

describe('isWebhookUrl', () => {
  it.each([
    ['https://city.example.gov/apds-events', 'ok'],
    ['https://93.184.216.34/hook', 'ok'],
    ['http://city.example.gov/hook', 'private'],
    ['https://localhost/hook', 'private'],
    ['https://api.localhost/hook', 'private'],
    ['https://intranet/hook', 'private'],
    ['https://127.0.0.1/hook', 'private'],
    ['https://[::1]/hook', 'private'],
    ['https://10.0.0.5/hook', 'private'],
    ['https://[::ffff:192.168.0.1]/hook', 'private'],
    ['https://user:pw@city.example.gov/hook', 'invalid'],
    ['ftp://city.example.gov/hook', 'invalid'],
    ['not a url', 'invalid'],
  ])('%s under production rules → %s', (url, expected) => expect(isWebhookUrl(url, false)).toBe(expected));

  it('takes loopback and plain http when private addresses are allowed (tests, development)', () => {
    expect(isWebhookUrl('http://127.0.0.1:3540/hook', true)).toBe('ok');
    expect(isWebhookUrl('ftp://127.0.0.1/hook', true)).toBe('invalid');
  });
});
