/**
 * The cache keys more than one feature uses: those the session follows (lib/session-store.ts: a
 * load of the account's Details or of the vehicles updates the signed-in member), the account a
 * payment changes, and the device's position. A feature's own keys are in its api/keys.ts.
 */
export const queryKeys = {
  session: ['session'],
  /** Everything of the member's account (its Details, its Parking Options): what a payment refreshes. */
  account: ['account'],
  accountDetails: ['account', 'details'],
  /** The member's reminder settings: the profile edits them, the parking banner reads the minutes. */
  reminders: ['account', 'reminders'],
  vehicles: ['vehicles'],
  /** The device's position: Find Parking's list and map, and History's distance sorts, ask once. */
  devicePosition: ['device-position'],
} as const;
