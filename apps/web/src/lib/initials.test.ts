import { describe, expect, it } from 'vitest';
import { initials } from './initials.ts';

describe('initials', () => {
  it('takes the first letter of each name, upper-cased', () => {
    expect(initials('riley', 'tester')).toBe('RT');
    expect(initials('  Ana ', '')).toBe('A');
    expect(initials('', '')).toBe(''); // no name and no username: an empty avatar, not a stray letter
  });

  it('keeps an emoji whole, with its skin tone or its joined parts', () => {
    expect(initials('👍🏽Sam', 'Lee')).toBe('👍🏽L');
    expect(initials('👩‍👩‍👧 Family', 'Ray')).toBe('👩‍👩‍👧R');
    expect(initials('🚗', '')).toBe('🚗');
  });

  it('keeps a Devanagari letter with its vowel sign', () => {
    expect(initials('सीता', 'राम')).toBe('सीरा');
  });

  it('falls back to the username when there is no name', () => {
    expect(initials('', '', 'zed')).toBe('Z');
    expect(initials(' ', ' ', '')).toBe('');
  });
});
