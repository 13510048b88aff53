/** Made on first use, as formatMoney's (the first Intl object of a page is slow to make: issue 9). */
let graphemes: Intl.Segmenter | undefined;

/** The first user-perceived character (an emoji with its modifiers, a Devanagari cluster…). */
function firstGrapheme(s: string): string {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const first = graphemes.segment(s.trim())[Symbol.iterator]().next();
  return first.done ? '' : first.value.segment;
}

/**
 * An avatar's initials: first grapheme of the first and of the last name, else of the username,
 * upper-cased (`charAt(0)` cut an emoji in half and showed a broken character).
 */
export function initials(first: string, last: string, username = ''): string {
  const s = firstGrapheme(first) + firstGrapheme(last) || firstGrapheme(username);
  return s.toLocaleUpperCase();
}
