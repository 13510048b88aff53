import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from './i18n.ts';
import { retryAfterText } from './retry-after.ts';

// A helper a mutation run found with no test of its own.
describe('retryAfterText (a 429 says when)', () => {
  afterEach(() => setLanguage('en'));
  it('nothing when the server gave no time', () => {
    expect(retryAfterText(null)).toBe('');
    expect(retryAfterText(0)).toBe('');
    expect(retryAfterText(-5)).toBe('');
  });
  it('seconds under a minute, whole minutes (rounded up) from a minute on', () => {
    expect(retryAfterText(1)).toBe('Try again in 1 s.');
    expect(retryAfterText(59)).toBe('Try again in 59 s.');
    expect(retryAfterText(60)).toBe('Try again in 1 min.');
    expect(retryAfterText(61)).toBe('Try again in 2 min.');
    expect(retryAfterText(240)).toBe('Try again in 4 min.');
  });
  it('in Hindi too', async () => {
    await setLanguage('hi');
    expect(retryAfterText(25)).not.toBe('Try again in 25 s.');
    expect(retryAfterText(25)).toContain('25');
  });
});
