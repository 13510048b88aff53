import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { toast } from './toasts.tsx';
import { ApiError } from './api-client.ts';
import i18n from './i18n.ts';

/** Server field name -> form field name; a list when they are the same. */
export type ServerFields<T extends FieldValues> = ReadonlyArray<Path<T>> | Partial<Record<string, Path<T>>>;

export interface FormErrorOptions {
  /**
   * The toast to show even when fields were marked (Edit Profile shows the response's Message,
   * docs/product.md#errors). Without it, a toast shows only when no field could take the error.
   */
  toast?: (err: ApiError) => string;
}

/**
 * The one way a form shows a refused request: each field the server names (400, 409,
 * `errors: [{field, message}]`) gets its message under the control, and the first of them takes
 * the keyboard (react-hook-form's `shouldFocus`); anything else (429, 5xx, no answer) is the
 * error catalogue's toast (docs/product.md#errors). Returns whether a field was marked. A programming
 * error (not an ApiError) is thrown on.
 */
export function showFormError<T extends FieldValues>(
  err: unknown,
  setError: UseFormSetError<T>,
  fields: ServerFields<T>,
  opts: FormErrorOptions = {},
): boolean {
  if (!(err instanceof ApiError)) throw err;
  const lookup = (name: string): Path<T> | undefined =>
    Array.isArray(fields)
      ? (fields as ReadonlyArray<Path<T>>).find((f) => f === name)
      : (fields as Partial<Record<string, Path<T>>>)[name];
  let placed = false;
  for (const e of err.body?.errors ?? []) {
    const name = lookup(e.field);
    if (!name) continue;
    setError(name, { type: 'server', message: e.message }, { shouldFocus: !placed });
    placed = true;
  }
  if (opts.toast) toast.error(i18n.t(opts.toast(err)));
  else if (!placed) toast.error(i18n.t(err.message));
  return placed;
}

/**
 * The one way a refused request outside a form is told (a button's mutation, a dialog's action): the
 * server's message in the reader's language, or a general one when there is none.
 */
export function toastFailure(err: unknown): void {
  toast.error(
    err instanceof ApiError && err.message ? i18n.t(err.message) : i18n.t('Something went wrong. Try again.'),
  );
}
