import { useState } from 'react';
import { useNavigate } from 'react-router';
import Download from 'lucide-react/icons/download';
import Trash2 from 'lucide-react/icons/trash-2';
import { DeleteAccountRequest } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { PasswordField } from '../../../components/ui/password-field.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { useMoney } from '../../../lib/money.ts';
import { clearSession } from '../../../lib/session.ts';
import { toast } from '../../../lib/toasts.tsx';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { downloadMyData, useDeleteAccount } from '../api/leaving.ts';

/**
 * Your data (docs/data.md#leaving): download everything as one JSON file, or delete the account
 * after typing the password again. The wallet's money goes back to the card; a refusal (a session
 * still running, a payment still pending) is said in the dialog and nothing changes.
 */
export function LeaveAccountCard() {
  const { t } = useTranslation();
  const [downloading, setDownloading] = useState(false);
  const [open, setOpen] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      await downloadMyData();
    } catch {
      toast.error(t('Your data could not be downloaded. Please try again.'));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section
      aria-labelledby="your-data"
      className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id="your-data" className="text-base font-semibold text-slate-900">
        {t('Your data')}
      </h2>
      <p className="text-sm text-slate-600">
        {t('Download everything ParkIt keeps about you (profile, vehicles, parking, wallet, support) as one file.')}
      </p>
      <Button variant="secondary" block loading={downloading} onClick={() => void download()}>
        <Download className="size-4" aria-hidden />
        {t('Download my data')}
      </Button>
      <Button variant="ghost" block onClick={() => setOpen(true)} className="text-red-700 hover:bg-red-50">
        <Trash2 className="size-4" aria-hidden />
        {t('Delete my account')}
      </Button>
      {open && <DeleteAccountDialog onClose={() => setOpen(false)} />}
    </section>
  );
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const money = useMoney();
  const remove = useDeleteAccount();
  // One key per confirmation: a retry after a lost answer is the same deletion.
  const [key] = useState(() => crypto.randomUUID());
  const [refused, setRefused] = useState<string | null>(null);
  const form = useSchemaForm(DeleteAccountRequest, { Password: '' });

  const submit = async (values: DeleteAccountRequest) => {
    setRefused(null);
    try {
      const done = await remove.mutateAsync({ body: values, key });
      clearSession();
      toast.success(
        done.RefundedAmount > 0
          ? t('Your account has been deleted. {{amount}} is on its way back to your card.', {
              amount: money(done.RefundedAmount),
            })
          : t(done.message),
      );
      void navigate(paths.parkit, { replace: true });
    } catch (err) {
      // A running session or a pending payment (409): said here, and the account stays.
      if (err instanceof ApiError && err.status === 409) return setRefused(t(err.message));
      showFormError(err, form.setError, ['Password']);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && !remove.isPending && onClose()}
      title={t('Delete your account?')}
      description={t(
        'Your profile, vehicles, cards and support chat are deleted and you are signed out everywhere. Money left in your wallet goes back to the card it came from. Receipts the operator must keep stay, without your name, phone or e-mail.',
      )}
    >
      <form noValidate onSubmit={form.handleSubmit(submit)} className="flex flex-col gap-3">
        <PasswordField
          label={t('Password')}
          autoComplete="current-password"
          hint={t('Type your password to confirm.')}
          {...form.field('Password')}
        />
        {refused && (
          <p role="alert" className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900">
            {refused}
          </p>
        )}
        <Button type="submit" variant="danger" block loading={form.submitting}>
          {t('Delete my account')}
        </Button>
        <Button type="button" variant="secondary" block disabled={form.submitting} onClick={onClose}>
          {t('Keep my account')}
        </Button>
      </form>
    </Dialog>
  );
}
