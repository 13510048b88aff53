import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { toast } from 'sonner';
import type { TFunction } from 'i18next';
import { ApiError } from '../../../lib/api-client.ts';

/**
 * A refused save: each field the server names gets its message under the control (the same
 * messages as the form, spec section 5); anything else (409 without a field, 5xx, no network)
 * becomes the spec's error toast.
 */
export function showServerErrors<T extends FieldValues>(err: unknown, fields: ReadonlyArray<Path<T>>, setError: UseFormSetError<T>, t: TFunction) {
  if (!(err instanceof ApiError)) throw err;
  let shown = false;
  for (const e of err.body?.errors ?? []) {
    const field = fields.find((f) => f === e.field);
    if (field) {
      setError(field, { type: 'server', message: e.message });
      shown = true;
    }
  }
  if (!shown) toast.error(t(err.message));
}
