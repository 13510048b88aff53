import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import i18n from '../../../lib/i18n.ts';

/**
 * A refused form: the server's field errors (400, 409) go beside their fields, where the driver
 * looks; anything else (429, no answer, 5xx) is the error catalogue's toast (spec section 8).
 * `fields` maps the server's field names to the form's.
 */
export function showApiError<T extends FieldValues>(err: unknown, setError: UseFormSetError<T>, fields: Partial<Record<string, Path<T>>>): void {
  if (err instanceof ApiError) {
    let placed = false;
    for (const e of err.body?.errors ?? []) {
      const name = fields[e.field];
      if (!name) continue;
      setError(name, { type: 'server', message: e.message }, { shouldFocus: !placed });
      placed = true;
    }
    if (!placed) toast.error(i18n.t(err.message));
    return;
  }
  toast.error(i18n.t(errorMessage(null, null)));
}
