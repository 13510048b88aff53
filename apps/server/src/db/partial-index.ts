import { sql, type Column, type SQL } from 'drizzle-orm';

/**
 * `column = 'active'`, the constant written into the statement rather than bound as a parameter.
 * The partial indexes on active rows (`where status = 'active'`: parking_sessions' zone and plate,
 * permits' plates and zones) can serve a prepared statement's generic plan only when its text says
 * the same constant: with a parameter PostgreSQL must plan for any status, scans an operator's
 * sessions instead, and so plans every execution anew (docs/enforcement.md#speed-one-plan-for-every-check).
 */
export const isActive = (column: Column): SQL => sql`${column} = 'active'`;
