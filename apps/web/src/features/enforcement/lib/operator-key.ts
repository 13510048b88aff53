/** Not a spec key: the officer's operator API key, kept in this browser only. */
export const OPERATOR_KEY = 'parkit_operator_key';

export const operatorKey = {
  get: () => {
    try {
      return localStorage.getItem(OPERATOR_KEY) ?? '';
    } catch {
      return '';
    }
  },
  set: (key: string) => localStorage.setItem(OPERATOR_KEY, key),
  forget: () => localStorage.removeItem(OPERATOR_KEY),
};

/** 14:35: the time a paid session ends, on this phone's clock (24-hour, as on a ticket). */
export function clock(iso: string): string {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}
