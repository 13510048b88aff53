import i18n from './i18n.ts';

/**
 * When a refused request (429) may be tried again, in words: "Try again in 25 s." or "Try again
 * in 4 min." (a refusal says why and when). Empty when the server gave no time.
 */
export function retryAfterText(seconds: number | null): string {
  if (seconds === null || seconds <= 0) return '';
  if (seconds < 60) return i18n.t('Try again in {{seconds}} s.', { seconds });
  return i18n.t('Try again in {{minutes}} min.', { minutes: Math.ceil(seconds / 60) });
}
