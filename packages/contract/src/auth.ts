import { z } from 'zod';
import { text } from './common.ts';
import { MESSAGES, SPEC_MESSAGES } from './messages.ts';

export const UserName = z
  .string({ error: SPEC_MESSAGES.usernameRequired })
  .trim()
  .min(1, SPEC_MESSAGES.usernameRequired)
  .regex(/^[A-Za-z0-9_.-]{3,30}$/, MESSAGES.usernameFormat);

export const EmailAddress = z
  .string({ error: SPEC_MESSAGES.emailRequired })
  .trim()
  .min(1, SPEC_MESSAGES.emailRequired)
  .max(254, SPEC_MESSAGES.emailInvalid)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, SPEC_MESSAGES.emailInvalid);

/** Digits only, as the spec's digit-only inputs; 10 to 15 digits (E.164 without the plus). */
export const PhoneNumber = z
  .string({ error: SPEC_MESSAGES.phoneRequired })
  .trim()
  .min(1, SPEC_MESSAGES.phoneRequired)
  .regex(/^\d{10,15}$/, MESSAGES.phoneFormat);

export const Password = z
  .string({ error: MESSAGES.passwordRequired })
  .min(1, MESSAGES.passwordRequired)
  .min(8, MESSAGES.passwordLength)
  .max(128, MESSAGES.passwordLength);

export const OtpCode = z
  .string({ error: MESSAGES.codeRequired })
  .trim()
  .min(1, MESSAGES.codeRequired)
  .regex(/^\d{6}$/, MESSAGES.codeFormat);

export const RegisterRequest = z.object({
  FirstName: text(50, MESSAGES.firstNameRequired),
  LastName: text(50, MESSAGES.lastNameRequired),
  UserName,
  EmailAddress,
  PhoneNumber,
  Password,
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;

/** A code was sent (Register, SendOtp, ForgotPassword): the phone it went to, masked (******0123). */
export const CodeSent = z.object({ message: z.string(), PhoneNumber: z.string() });
export type CodeSent = z.infer<typeof CodeSent>;

export const RegisterResponse = CodeSent;
export type RegisterResponse = CodeSent;

/** Asks for a sign-in code; the answer never tells whether the number has an account. */
export const SendCodeRequest = z.object({ PhoneNumber });
export type SendCodeRequest = z.infer<typeof SendCodeRequest>;

/** The spec's form-encoded token POST; grant_type picks the way in. */
export const TokenRequest = z.discriminatedUnion(
  'grant_type',
  [
    z.object({
      grant_type: z.literal('password'),
      username: z
        .string({ error: SPEC_MESSAGES.usernameRequired })
        .trim()
        .min(1, SPEC_MESSAGES.usernameRequired)
        .max(254),
      password: z
        .string({ error: MESSAGES.passwordRequired })
        .min(1, MESSAGES.passwordRequired)
        .max(128, MESSAGES.passwordLength),
    }),
    z.object({ grant_type: z.literal('otp'), phone: PhoneNumber, code: OtpCode }),
    z.object({
      grant_type: z.literal('refresh_token'),
      refresh_token: z.string().max(200).optional(),
    }),
  ],
  { error: 'grant_type must be password, otp or refresh_token' },
);
export type TokenRequest = z.infer<typeof TokenRequest>;

export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  refresh_token: z.string(),
  member_id: z.number().int(),
  /** How the member signed in: a code lets /resetpassword set a password without another code. */
  amr: z.enum(['pwd', 'otp']),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

export const LogoutRequest = z.object({ refresh_token: z.string().max(200).optional() });

/** /resetpassword: a code sent by /forgot, or none right after a sign-in with a code. */
export const ResetPasswordRequest = z.object({
  Code: OtpCode.optional(),
  NewPassword: Password,
});
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;

export const OutboxMessage = z.object({
  Id: z.number().int(),
  Channel: z.enum(['sms', 'email']),
  To: z.string(),
  Body: z.string(),
  CreatedAt: z.string(),
});
export type OutboxMessage = z.infer<typeof OutboxMessage>;
