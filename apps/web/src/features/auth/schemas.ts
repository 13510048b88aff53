import { z } from 'zod';
import { OtpCode, RegisterRequest, SendCodeRequest, TokenRequest } from '@parkit/contract';

/**
 * The sign-in forms' schemas, in a module of their own that the forms load when first used
 * (lib/use-schema-form.ts): /login, /register and /otp paint without zod.
 */

/** The password branch of the token request: the same rules and messages as the server. */
export const LoginFields = TokenRequest.options[0].pick({ username: true, password: true });
export const CodeForm = z.object({ code: OtpCode });
export { RegisterRequest, SendCodeRequest };
