import { useState } from 'react';
import {
  CreateApiKeyRequest,
  operatorCan,
  type ApiKeyPurpose,
  type CreatedApiKey,
  type OperatorApiKey,
} from '@parkit/contract';
import { formatDate, formatTime } from '../../../lib/dates.ts';
import { useTranslation, type TFunction } from '../../../lib/i18n.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { FormSelect } from '../../../components/ui/form-fields.tsx';
import { Loaded, Notice } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useApiKeys, useMakeApiKey, useRevokeApiKey } from '../api/api-keys.ts';
import { useMembership } from './console-shell.tsx';

const purposeLabel = (t: TFunction, purpose: ApiKeyPurpose) =>
  purpose === 'cds' ? t('City’s CDS feed') : t('Officers’ devices');

/**
 * API keys (/operator/{id}/keys): the owner makes a key for officers' devices (the plate check) or
 * for a city's CDS feed, sees it once, lists the keys by prefix with their last use, and revokes one.
 */
export function KeysScreen() {
  const { t } = useTranslation();
  const membership = useMembership();
  if (!operatorCan(membership.Role, 'keys')) return <Notice>{t('Only an owner manages API keys.')}</Notice>;
  return (
    <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
      <section aria-labelledby="keys-title" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h1 id="keys-title" className="mb-1 text-xl font-bold text-slate-900">
          {t('API keys')}
        </h1>
        <p className="mb-3 text-sm text-slate-600">
          {t(
            'An officers’ key opens the plate check on an officer’s device; a city’s CDS key opens your CDS Events and Metrics feed. Only a key’s first characters are kept to show here.',
          )}
        </p>
        <KeyList operatorId={membership.OperatorId} />
      </section>
      <MakeKey operatorId={membership.OperatorId} />
    </div>
  );
}

function KeyList({ operatorId }: { operatorId: number }) {
  const { t } = useTranslation();
  const keys = useApiKeys(operatorId);
  const revoke = useRevokeApiKey(operatorId);
  const [revoking, setRevoking] = useState<OperatorApiKey | null>(null);
  return (
    <Loaded query={keys} skeleton={<Skeleton rows={3} className="h-14" />} failed={t('API keys could not be loaded.')}>
      {(list) =>
        list.length === 0 ? (
          <p className="text-slate-600">{t('No key yet.')}</p>
        ) : (
          <>
            <ul className="divide-y divide-slate-200">
              {list.map((k) => (
                <li key={k.Prefix} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold break-words text-slate-900">
                      <code className="font-mono">{k.Prefix}…</code> · {purposeLabel(t, k.Purpose)}
                    </p>
                    {k.Label && <p className="text-sm break-words text-slate-700">{k.Label}</p>}
                    <p className="text-sm break-words text-slate-600">
                      {t('made {{date}}', { date: formatDate(k.CreatedAt) })} ·{' '}
                      {k.LastUsedAt
                        ? t('last used {{date}} {{time}}', {
                            date: formatDate(k.LastUsedAt),
                            time: formatTime(k.LastUsedAt),
                          })
                        : t('never used')}
                    </p>
                  </div>
                  {k.RevokedAt ? (
                    <span className="rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-700">
                      {t('Revoked {{date}}', { date: formatDate(k.RevokedAt) })}
                    </span>
                  ) : (
                    <Button variant="secondary" size="sm" onClick={() => setRevoking(k)}>
                      {t('Revoke')}
                    </Button>
                  )}
                </li>
              ))}
            </ul>
            <Dialog
              open={revoking !== null}
              onOpenChange={(open) => !open && setRevoking(null)}
              title={t('Revoke {{prefix}}?', { prefix: `${revoking?.Prefix ?? ''}…` })}
              description={t('Whatever uses this key stops working at once. This cannot be undone.')}
            >
              <Button
                variant="danger"
                loading={revoke.isPending}
                onClick={() =>
                  revoking &&
                  revoke.mutate(revoking.Prefix, {
                    onSuccess: () => toast.success(t('Key revoked')),
                    onSettled: () => setRevoking(null),
                  })
                }
              >
                {t('Revoke')}
              </Button>
              <Button variant="ghost" onClick={() => setRevoking(null)}>
                {t('Cancel')}
              </Button>
            </Dialog>
          </>
        )
      }
    </Loaded>
  );
}

function MakeKey({ operatorId }: { operatorId: number }) {
  const { t } = useTranslation();
  const make = useMakeApiKey(operatorId);
  const [made, setMade] = useState<CreatedApiKey | null>(null);
  const form = useSchemaForm(CreateApiKeyRequest, { Purpose: 'enforcement', Label: '' });
  const submit = form.handleSubmit(async (body) => {
    try {
      setMade(await make.mutateAsync(body));
      form.reset({ Purpose: body.Purpose, Label: '' });
    } catch (err) {
      showFormError(err, form.setError, ['Purpose', 'Label']);
    }
  });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(made?.Key ?? '');
      toast.success(t('Key copied'));
    } catch {
      toast.error(t('The key could not be copied: select it and copy it yourself.'));
    }
  };
  return (
    <section aria-labelledby="make-key-title" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 id="make-key-title" className="mb-3 text-lg font-bold text-slate-900">
        {t('Make a key')}
      </h2>
      <form className="flex flex-col gap-3" onSubmit={(e) => void submit(e)} noValidate>
        <FormSelect
          control={form.control}
          name="Purpose"
          label={t('For')}
          placeholder={t('Choose what the key opens')}
          options={(['enforcement', 'cds'] as const).map((p) => ({ value: p, label: purposeLabel(t, p) }))}
        />
        <TextField
          label={t('Label')}
          {...form.field('Label')}
          maxLength={100}
          autoComplete="off"
          hint={t('For you: who or what uses it, such as “Night shift” or “City of Austin”.')}
        />
        <Button type="submit" loading={form.submitting}>
          {t('Make key')}
        </Button>
      </form>
      <Dialog
        open={made !== null}
        onOpenChange={(open) => !open && setMade(null)}
        title={t('Your new key')}
        description={t('Copy it now: it is shown only this once. Keep it as safe as a password.')}
      >
        <label className="flex flex-col gap-1 text-sm font-semibold text-slate-900">
          {made ? purposeLabel(t, made.Purpose) : ''}
          <textarea
            readOnly
            rows={3}
            value={made?.Key ?? ''}
            onFocus={(e) => e.currentTarget.select()}
            className="rounded-lg border border-slate-300 p-2 font-mono text-sm break-all"
          />
        </label>
        <Button onClick={() => void copy()}>{t('Copy key')}</Button>
        <Button variant="ghost" onClick={() => setMade(null)}>
          {t('Done')}
        </Button>
      </Dialog>
    </section>
  );
}
