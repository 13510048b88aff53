/**
 * Plates as an officer types them and as a driver saved them compare equal: case, spaces, dashes
 * and dots do not matter ('abc-123', 'ABC 123' and 'ABC123' are one plate).
 */
export function normalisePlate(plate: string): string {
  return plate.toUpperCase().replace(/[\s\-.·]/g, '');
}
