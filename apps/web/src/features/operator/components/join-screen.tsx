import { useNavigate } from 'react-router';
import { AcceptInviteRequest } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useAcceptInvite } from '../api/memberships.ts';
import { operatorPath } from '../lib/paths.ts';

/**
 * /operator/join: someone invited to an operator's team, signed in with the invited phone or
 * e-mail, enters the code and lands in the console.
 */
export function JoinScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const accept = useAcceptInvite();
  const form = useSchemaForm<AcceptInviteRequest>(AcceptInviteRequest, { Code: '' });
  const submit = form.handleSubmit(async (body) => {
    try {
      const joined = await accept.mutateAsync(body);
      toast.success(t('Welcome to {{name}}', { name: joined.Name }));
      await navigate(operatorPath(joined.OperatorId, 'people'));
    } catch (err) {
      showFormError(err, form.setError, ['Code']);
    }
  });
  return (
    <main className="mx-auto flex w-full max-w-md flex-1 flex-col gap-4 p-4">
      <h1 className="text-xl font-bold text-slate-900">{t('Join an operator’s team')}</h1>
      <p className="text-slate-700">
        {t('Enter the invitation code sent to your phone or e-mail. Sign in with that phone or e-mail first.')}
      </p>
      <form className="flex flex-col gap-3" onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label={t('Invitation code')}
          {...form.field('Code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={8}
        />
        <Button type="submit" loading={form.submitting}>
          {t('Join')}
        </Button>
      </form>
    </main>
  );
}
