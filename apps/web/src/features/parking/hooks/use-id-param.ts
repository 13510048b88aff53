import { useSearchParams } from 'react-router';

/** ?zone=123 → 123; anything else (missing, text, 0, negative, huge) is no zone. */
export function parseZoneId(raw: string | null): number | null {
  if (raw === null || !/^\d{1,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

/** The id a screen's address names (?id=12, ?zone=3): a positive whole number, else null. */
export function useIdParam(name: string): number | null {
  const [params] = useSearchParams();
  return parseZoneId(params.get(name));
}
