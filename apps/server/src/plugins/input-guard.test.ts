import { describe, expect, it } from 'vitest';
import { nulField } from './input-guard.ts';

describe('nulField', () => {
  it('finds no NUL in ordinary input', () => {
    expect(nulField(undefined)).toBeNull();
    expect(nulField(null)).toBeNull();
    expect(nulField({ a: 'x', b: [1, 'y', { c: true }], d: '🚗 <script>' })).toBeNull();
  });

  it('names the field holding a NUL, at any depth, in values and in keys', () => {
    expect(nulField('a\u0000')).toBe('');
    expect(nulField({ EmailAddress: 'a\u0000b@c.de' })).toBe('EmailAddress');
    expect(nulField({ list: ['ok', { deep: 'x\u0000' }] })).toBe('list.1.deep');
    expect(nulField({ 'k\u0000': 'v' })).toBe('k\u0000');
  });

  it('walks very deep input without overflowing the stack', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nulField(deep)).toMatch(/^0(\.0)*$/);
  });

  it('skips binary bodies', () => {
    expect(nulField(Buffer.from([0, 0, 0]))).toBeNull();
  });
});
