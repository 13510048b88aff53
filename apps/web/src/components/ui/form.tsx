import type { FormEventHandler, ReactNode } from 'react';
import { Button } from './button.tsx';

/**
 * The sign-in forms' shape: the fields, then the one submit button with its loader
 * (`submit`: its text, already translated); `after` goes below the button (a resend link).
 */
export function Form({
  onSubmit,
  submitting,
  submit,
  children,
  after,
}: {
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitting: boolean;
  submit: string;
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      {children}
      <Button type="submit" block loading={submitting}>
        {submit}
      </Button>
      {after}
    </form>
  );
}
