/**
 * Plates as an officer types them and as a driver saved them compare equal: case, spaces, dashes
 * and dots do not matter ('abc-123', 'ABC 123' and 'ABC123' are one plate).
 */
export function normalisePlate(plate: string): string {
  return plate.toUpperCase().replace(/[\s\-.·]/g, '');
}

/**
 * What an anonymised plate becomes (enforcement/retention.ts): no plate is written with it
 * (plates are letters and digits), so it matches no check, right or citation. A visitor day's
 * becomes `*<id>`, which its unique (permit, plate, day) index needs.
 */
export const ANONYMISED_PLATE = '*';
