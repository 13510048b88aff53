import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import { z } from 'zod';
import { TopUpAmount, TriggerAmount, type AccountDetails } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { showFormError } from '../../../lib/form-errors.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { useSaveAutoReload } from '../api/wallet.ts';
import { amountText, useMoney } from '../../../lib/money.ts';

const Form = z.object({ DefaultAddAmount: TopUpAmount, MinBalance: TriggerAmount });
type FormIn = z.input<typeof Form>;
type FormOut = z.output<typeof Form>;

/**
 * The spec's lines 'Default Add Amount' and 'Minimum Trigger Amount', made real: two saved
 * settings and the auto-reload switch (POST /api/Account/AutoReload).
 */
export function AutoReloadCard({ details }: { details: AccountDetails }) {
  const { t } = useTranslation();
  const money = useMoney();
  const [editing, setEditing] = useState(false);
  const save = useSaveAutoReload();
  const form = useSchemaForm<FormIn, FormOut>(Form, {
    DefaultAddAmount: amountText(details.DefaultAddAmount),
    MinBalance: amountText(details.MinBalance).replace(/,/g, ''),
  });

  const send = async (autoReload: boolean, values: FormOut) => {
    try {
      await save.mutateAsync({
        AutoReload: autoReload,
        DefaultAddAmount: values.DefaultAddAmount / 100,
        MinBalance: values.MinBalance / 100,
      });
      toast.success(t('Auto-reload settings saved'));
      setEditing(false);
    } catch (err) {
      showFormError(err, form.setError, ['DefaultAddAmount', 'MinBalance', 'AutoReload'] as never);
    }
  };

  const toggle = (on: boolean) => {
    const cents = (v: number | string) => Math.round(Number(v) * 100);
    void send(on, { DefaultAddAmount: cents(details.DefaultAddAmount), MinBalance: cents(details.MinBalance) });
  };

  return (
    <section
      aria-labelledby="reload-title"
      className="flex flex-col gap-2 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id="reload-title" className="sr-only">
        {t('Auto-reload')}
      </h2>
      <Switch
        label={t('Auto-reload')}
        checked={details.AutoReload}
        disabled={save.isPending}
        onCheckedChange={toggle}
      />
      <p className="text-xs text-slate-500">
        {t('When your balance falls below the trigger, your default card is charged the add amount.')}
      </p>
      {!editing ? (
        <>
          <p className="flex justify-between text-sm">
            <span className="text-slate-600">{t('Default Add Amount')}</span>
            <span className="font-semibold tabular-nums" data-testid="default-add-amount">
              {money(details.DefaultAddAmount)}
            </span>
          </p>
          <p className="flex justify-between text-sm">
            <span className="text-slate-600">{t('Minimum Trigger Amount')}</span>
            <span className="font-semibold tabular-nums" data-testid="min-trigger-amount">
              {money(Number(details.MinBalance) || 0)}
            </span>
          </p>
          <Button variant="ghost" className="self-start" onClick={() => setEditing(true)}>
            {t('Change amounts')}
          </Button>
        </>
      ) : (
        <form
          className="flex flex-col gap-3"
          noValidate
          onSubmit={form.handleSubmit((v) => send(details.AutoReload, v))}
        >
          <TextField
            label={t('Default Add Amount')}
            inputMode="decimal"
            {...form.register('DefaultAddAmount')}
            error={form.formState.errors.DefaultAddAmount?.message}
          />
          <TextField
            label={t('Minimum Trigger Amount')}
            inputMode="decimal"
            {...form.register('MinBalance')}
            error={form.formState.errors.MinBalance?.message}
          />
          <div className="flex gap-2">
            <Button type="submit" loading={save.isPending} className="flex-1">
              {t('Save')}
            </Button>
            <Button variant="secondary" className="flex-1" disabled={save.isPending} onClick={() => setEditing(false)}>
              {t('Cancel')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
