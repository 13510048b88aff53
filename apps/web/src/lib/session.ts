import type { AccountDetails, TokenResponse, UserData } from '@parkit/contract';
import { api } from './api-client.ts';
import { env } from '../config/env.ts';
import { paths } from '../config/paths.ts';
import { KEYS, storage } from './storage.ts';
import { isSupportAgent } from './support-agent.ts';

/** Stores the spec's user_data and the keys derived from the account (DESIGN.md section 3). */
export function storeAccount(d: AccountDetails) {
  const userData: UserData = {
    MemberId: d.MemberId,
    EmailAddress: d.EmailAddress,
    PhoneNumber: d.PhoneNumber,
    FirstName: d.FirstName,
    LastName: d.LastName,
    UserName: d.UserName,
    AddressLine1: d.AddressLine1,
    AddressLine2: d.AddressLine2,
    City: d.City,
    State: d.State,
    ZipCode: d.ZipCode,
    MinBalance: d.MinBalance || '0',
  };
  storage.set(KEYS.userData, JSON.stringify(userData));
  storage.set(KEYS.username, d.UserName);
  storage.set(KEYS.userId, String(d.MemberId));
  storage.set(KEYS.clientId, String(d.ClientId));
  storage.set(KEYS.isVehicle, d.VehicleCount > 0 ? 'true' : 'false');
}

/** Keeps user_data and username in step with the account after the profile is saved. */
export function storeUserData(u: UserData) {
  storage.set(KEYS.userData, JSON.stringify({ ...u, MinBalance: u.MinBalance || '0' }));
  storage.set(KEYS.username, u.UserName);
}

/** is_vehicle: 'true' after an add (spec section 4), 'false' once the last vehicle is removed. */
export function setHasVehicle(has: boolean) {
  storage.set(KEYS.isVehicle, has ? 'true' : 'false');
}

/**
 * After any sign-in: keep the token and the spec's keys, load the account, and say where to go:
 * /addvehicles for a member with no vehicle, else /homepage.
 */
export async function completeSignIn(token: TokenResponse): Promise<string> {
  storage.remove(KEYS.isGuest);
  storage.set(KEYS.accessToken, token.access_token);
  storage.set(KEYS.appId, env.VITE_APP_ID);
  storage.set(KEYS.userId, String(token.member_id));
  const details = await api.get<AccountDetails>('/api/Account/Details');
  storeAccount(details);
  if (await isSupportAgent()) return paths.supportConsole; // issue 13: agents land on the console
  return details.VehicleCount > 0 ? paths.homepage : paths.addVehicles;
}

/** 'Continue as guest': the guest flag and the home page. */
export function continueAsGuest(): string {
  storage.set(KEYS.isGuest, 'true');
  storage.set(KEYS.appId, env.VITE_APP_ID);
  return paths.homepage;
}

/** 'Yes, Logout': the server revokes the refresh token, the browser forgets everything. */
export async function logout(): Promise<void> {
  try {
    await api.post('/api/Account/Logout', {}, { showError: false });
  } finally {
    storage.clearAll();
  }
}
