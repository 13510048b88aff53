import type { ChangeEvent, KeyboardEvent } from 'react';
import { acceptsDigitKey } from '@parkit/contract';
import { TextField, type TextFieldProps } from './field.tsx';

/** Keeps digits only, whatever was typed or pasted, before the form reads the value. */
function digitsOnly(onChange: TextFieldProps['onChange']) {
  return (e: ChangeEvent<HTMLInputElement>) => {
    const clean = e.target.value.replace(/\D/g, '');
    if (clean !== e.target.value) e.target.value = clean;
    onChange?.(e);
  };
}

/**
 * The digit-key rule, once for every digit-only field (phone, code, ZipCode): docs/product.md#validation
 * and #formats-and-limits, digit keys only and none once the field holds more than 11 characters.
 */
export function refuseNonDigits(e: KeyboardEvent<HTMLInputElement>) {
  if (e.ctrlKey || e.metaKey || e.altKey) return; // copy, paste, select all
  if (!acceptsDigitKey(e.currentTarget.value, e.key)) e.preventDefault();
}

/** A mobile number: digits only (docs/product.md#validation), numeric keypad on phones. */
export function PhoneField({ onChange, ...rest }: TextFieldProps) {
  return (
    <TextField
      type="tel"
      inputMode="numeric"
      autoComplete="tel-national"
      onKeyDown={refuseNonDigits}
      onChange={digitsOnly(onChange)}
      {...rest}
    />
  );
}

/** The 6-digit code (a dot a digit until typed); phones offer the code from the SMS (one-time-code). */
export function CodeField({ onChange, className = '', ...rest }: TextFieldProps) {
  return (
    <TextField
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      placeholder="••••••"
      onChange={digitsOnly(onChange)}
      className={`text-center font-mono text-2xl tracking-[0.5em] ${className}`}
      {...rest}
    />
  );
}
