import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import type { z } from 'zod';
import { EnforcementQuery, type EnforcementAnswer } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { FormText } from '../../../components/ui/form-fields.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { useCheckPlate } from '../api/check-plate.ts';
import { operatorKey } from '../lib/operator-key.ts';
import { CheckResult } from './check-result.tsx';
import { OperatorKeyForm } from './operator-key-form.tsx';

type Input = z.input<typeof EnforcementQuery>;
type Output = z.output<typeof EnforcementQuery>;

/** What a refused check means to an officer on the street. */
function problem(err: unknown, t: (k: string) => string): string {
  if (!(err instanceof ApiError)) return t('The check failed. Try again.');
  if (err.status === null) return t('No connection. Try again.');
  if (err.status === 401) return t('This key is not valid any more. Ask your operator for a new one.');
  if (err.status === 404) return t('Your operator has no zone with this number.');
  if (err.status === 429) return t('Too many checks. Please wait a minute.');
  return t('The check failed. Try again.');
}

/** /enforcement: the officer's plate check, on a phone, with the operator's key. */
export function EnforcementScreen() {
  const { t } = useTranslation();
  const [key, setKey] = useState(operatorKey.get);
  const [result, setResult] = useState<{ answer: EnforcementAnswer; at: Date } | null>(null);
  const check = useCheckPlate();
  const { control, handleSubmit } = useSchemaForm<Input, Output>(EnforcementQuery, { zone: '', plate: '', state: '' });

  const submit = handleSubmit(async (q) => {
    setResult(null);
    try {
      setResult({ answer: await check.mutateAsync({ key, q }), at: new Date() });
    } catch {
      // Shown below from check.error.
    }
  });

  return (
    <main className="flex min-h-dvh flex-col bg-slate-100">
      <header className="bg-slate-900 px-4 py-3 text-white">
        <h1 className="text-xl font-bold">{t('Plate check')}</h1>
        <p className="text-sm text-slate-300">{t('For parking enforcement officers')}</p>
      </header>
      <div className="flex flex-col gap-4 p-4">
        {!key ? (
          <OperatorKeyForm
            onSave={(k) => {
              operatorKey.set(k);
              setKey(k);
            }}
          />
        ) : (
          <>
            <form
              onSubmit={(e) => void submit(e)}
              className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
              noValidate
            >
              <FormText control={control} name="zone" label={t('Zone number')} inputMode="numeric" autoComplete="off" />
              <div className="grid grid-cols-[1fr_6rem] gap-3">
                <FormText
                  control={control}
                  name="plate"
                  label={t('Plate')}
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  className="font-mono text-lg uppercase"
                />
                <FormText
                  control={control}
                  name="state"
                  label={t('State')}
                  autoComplete="off"
                  autoCapitalize="characters"
                  maxLength={2}
                  className="uppercase"
                />
              </div>
              <Button type="submit" loading={check.isPending} className="min-h-14 text-lg">
                {t('Check plate')}
              </Button>
            </form>
            {check.isError && (
              <p role="alert" className="rounded-2xl bg-amber-100 p-4 text-lg font-semibold text-amber-950">
                {problem(check.error, t)}
              </p>
            )}
            {result && <CheckResult answer={result.answer} checkedAt={result.at} />}
            <button
              type="button"
              className="min-h-11 self-center text-sm font-semibold text-slate-600 underline underline-offset-2"
              onClick={() => {
                operatorKey.forget();
                setKey('');
                setResult(null);
              }}
            >
              {t('Forget this key')}
            </button>
          </>
        )}
      </div>
    </main>
  );
}
