import { MIN_VEHICLE_YEAR, maxVehicleYear } from '@parkit/contract';

export interface Option {
  value: string;
  label: string;
}

/**
 * List values are shown uppercased (docs/product.md#stored-data) and used uppercased as the select's value too:
 * the server matches names in any case, and one spelling keeps the stored value and the list equal.
 */
export function upperOptions(names: ReadonlyArray<string> | undefined): Option[] {
  const seen = new Set<string>();
  const out: Option[] = [];
  for (const name of names ?? []) {
    const v = name.trim().toUpperCase();
    if (v && !seen.has(v)) {
      seen.add(v);
      out.push({ value: v, label: v });
    }
  }
  return out;
}

/**
 * Keeps the current value selectable while its list loads, fails or lacks it; this is how the
 * edited vehicle's model joins the model options (docs/product.md#states).
 */
export function withCurrent(options: Option[], current: string): Option[] {
  if (!current || options.some((o) => o.value === current)) return options;
  return [{ value: current, label: current }, ...options];
}

/** The year picker: next year down to 1900, as yyyy (docs/product.md#screens and #formats-and-limits). */
export function yearOptions(now: Date = new Date()): Option[] {
  const years: Option[] = [];
  for (let y = maxVehicleYear(now); y >= MIN_VEHICLE_YEAR; y--) years.push({ value: String(y), label: String(y) });
  return years;
}
