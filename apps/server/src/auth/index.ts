// The auth domain's public entry (sign-in: tokens, grants (password, code), codes sent by text, refresh tokens, the auth plugin). Routes and other domains import from here, never
// from a file inside; what a file here imports is in auth/README.md.
export * from './auth-plugin.ts';
export { default as authPlugin } from './auth-plugin.ts';
export * from './codes.ts';
export * from './login-limits.ts';
export * from './otp-grant.ts';
export * from './otp-repository.ts';
export * from './password-grant.ts';
export * from './passwords.ts';
export * from './refresh-token-repository.ts';
export * from './session.ts';
export * from './tokens.ts';
