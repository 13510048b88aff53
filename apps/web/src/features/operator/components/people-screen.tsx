import { useState } from 'react';
import {
  InviteRequest,
  OPERATOR_ROLES,
  operatorCan,
  type OperatorRole,
  type PendingInvite,
  type StaffMember,
} from '@parkit/contract';
import { formatDate, formatTime } from '../../../lib/dates.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { toast } from '../../../lib/toasts.tsx';
import { useSession } from '../../../lib/session.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { FormSelect } from '../../../components/ui/form-fields.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useChangeSettings, useOperatorSettings } from '../api/settings.ts';
import { useChangeRole, useInvite, useInvites, useRemoveStaff, useStaff, useWithdrawInvite } from '../api/staff.ts';
import { roleLabel } from '../lib/role-label.ts';
import { RetentionSetting } from './retention-setting.tsx';
import { useMembership } from './console-shell.tsx';

/** People (/operator/{id}/people): the team and their roles; the owner invites, changes roles, removes. */
export function PeopleScreen() {
  const { t } = useTranslation();
  const membership = useMembership();
  const manages = operatorCan(membership.Role, 'people');
  const staff = useStaff(membership.OperatorId);
  return (
    <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
      <section aria-labelledby="people-title" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h1 id="people-title" className="mb-3 text-xl font-bold text-slate-900">
          {t('People')}
        </h1>
        <Loaded
          query={staff}
          skeleton={<Skeleton rows={3} className="h-14" />}
          failed={t('People could not be loaded.')}
        >
          {(list) => <StaffList list={list} operatorId={membership.OperatorId} manages={manages} />}
        </Loaded>
      </section>
      <div className="flex flex-col gap-4">
        {manages && (
          <>
            <InviteForm operatorId={membership.OperatorId} />
            <Invites operatorId={membership.OperatorId} />
          </>
        )}
        <PlateSetting operatorId={membership.OperatorId} changes={operatorCan(membership.Role, 'settings')} />
      </div>
    </div>
  );
}

/** Whether the console shows drivers' plates in full: every role sees the setting, the owner switches it. */
function PlateSetting({ operatorId, changes }: { operatorId: number; changes: boolean }) {
  const { t } = useTranslation();
  const settings = useOperatorSettings(operatorId);
  const change = useChangeSettings(operatorId);
  return (
    <section aria-labelledby="privacy-title" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 id="privacy-title" className="mb-3 text-lg font-bold text-slate-900">
        {t('Privacy')}
      </h2>
      <Loaded
        query={settings}
        skeleton={<Skeleton rows={1} className="h-11" />}
        failed={t('Settings could not be loaded.')}
      >
        {(s) => (
          <div className="flex flex-col gap-1">
            <label className="flex min-h-11 items-center gap-3 text-slate-900">
              <input
                type="checkbox"
                className="size-5"
                checked={s.ShowPlates}
                disabled={!changes || change.isPending}
                aria-describedby="show-plates-hint"
                onChange={(e) =>
                  change.mutate(
                    { ShowPlates: e.target.checked },
                    { onSuccess: () => toast.success(t('Setting saved')) },
                  )
                }
              />
              {t('Show drivers’ plates in full')}
            </label>
            <p id="show-plates-hint" className="text-sm text-slate-600">
              {changes
                ? t('Off: the console hides all but the last two characters of a plate.')
                : t('Only an owner changes this. Off: the console hides all but the last two characters of a plate.')}
            </p>
            <RetentionSetting operatorId={operatorId} settings={s} changes={changes} />
          </div>
        )}
      </Loaded>
    </section>
  );
}

function StaffList({ list, operatorId, manages }: { list: StaffMember[]; operatorId: number; manages: boolean }) {
  const { t } = useTranslation();
  const me = Number(useSession().userId);
  const changeRole = useChangeRole(operatorId);
  const remove = useRemoveStaff(operatorId);
  const [removing, setRemoving] = useState<StaffMember | null>(null);
  if (list.length === 0) return <p className="text-slate-600">{t('Nobody works here yet.')}</p>;
  return (
    <>
      <ul className="divide-y divide-slate-200">
        {list.map((p) => (
          <li key={p.MemberId} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
            <div className="min-w-0 flex-1">
              <p className="font-semibold break-words text-slate-900">
                {p.Name || p.UserName}
                {p.MemberId === me && <span className="ms-2 text-sm font-normal text-slate-500">{t('(you)')}</span>}
              </p>
              <p className="text-sm break-words text-slate-600">
                {p.UserName} · {t('since {{date}}', { date: formatDate(p.Since) })}
              </p>
            </div>
            {manages ? (
              <>
                <label className="flex items-center gap-2 text-sm">
                  <span className="sr-only">{t('Role of {{name}}', { name: p.UserName })}</span>
                  <select
                    className="min-h-11 rounded-lg border border-slate-300 bg-white px-2"
                    value={p.Role}
                    disabled={changeRole.isPending}
                    onChange={(e) =>
                      changeRole.mutate(
                        { memberId: p.MemberId, role: e.target.value as OperatorRole },
                        { onSuccess: () => toast.success(t('Role changed')) },
                      )
                    }
                  >
                    {OPERATOR_ROLES.map((r) => (
                      <option key={r} value={r}>
                        {roleLabel(t, r)}
                      </option>
                    ))}
                  </select>
                </label>
                <Button variant="secondary" size="sm" onClick={() => setRemoving(p)}>
                  {t('Remove')}
                </Button>
              </>
            ) : (
              <span className="rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-700">
                {roleLabel(t, p.Role)}
              </span>
            )}
          </li>
        ))}
      </ul>
      <Dialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t('Remove {{name}}?', { name: removing?.UserName ?? '' })}
        description={t('They lose access to this operator at once.')}
      >
        <Button
          variant="danger"
          loading={remove.isPending}
          onClick={() =>
            removing &&
            remove.mutate(removing.MemberId, {
              onSuccess: () => toast.success(t('Removed from the team')),
              onSettled: () => setRemoving(null),
            })
          }
        >
          {t('Remove')}
        </Button>
        <Button variant="ghost" onClick={() => setRemoving(null)}>
          {t('Cancel')}
        </Button>
      </Dialog>
    </>
  );
}

function InviteForm({ operatorId }: { operatorId: number }) {
  const { t } = useTranslation();
  const invite = useInvite(operatorId);
  const form = useSchemaForm<InviteRequest>(InviteRequest, { Contact: '', Role: 'manager' });
  const submit = form.handleSubmit(async (body) => {
    try {
      await invite.mutateAsync(body);
      toast.success(t('Invitation sent'));
      form.reset({ Contact: '', Role: body.Role });
    } catch (err) {
      showFormError(err, form.setError, ['Contact', 'Role']);
    }
  });
  return (
    <section aria-labelledby="invite-title" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 id="invite-title" className="mb-3 text-lg font-bold text-slate-900">
        {t('Invite someone')}
      </h2>
      <form className="flex flex-col gap-3" onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label={t('Phone or e-mail')}
          {...form.field('Contact')}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          hint={t('They get a code, and enter it signed in with this phone or e-mail.')}
        />
        <FormSelect
          control={form.control}
          name="Role"
          label={t('Role')}
          placeholder={t('Choose a role')}
          options={OPERATOR_ROLES.map((r) => ({ value: r, label: roleLabel(t, r) }))}
        />
        <Button type="submit" loading={form.submitting}>
          {t('Send invitation')}
        </Button>
      </form>
    </section>
  );
}

function Invites({ operatorId }: { operatorId: number }) {
  const { t } = useTranslation();
  const invites = useInvites(operatorId, true);
  const withdraw = useWithdrawInvite(operatorId);
  return (
    <section aria-labelledby="invites-title" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 id="invites-title" className="mb-3 text-lg font-bold text-slate-900">
        {t('Waiting invitations')}
      </h2>
      <Loaded
        query={invites}
        skeleton={<Skeleton rows={2} className="h-12" />}
        failed={t('Invitations could not be loaded.')}
        compact
      >
        {(list: PendingInvite[]) =>
          list.length === 0 ? (
            <p className="text-sm text-slate-600">{t('No invitation is waiting.')}</p>
          ) : (
            <ul className="divide-y divide-slate-200">
              {list.map((i) => (
                <li key={i.InviteId} className="flex flex-wrap items-center gap-2 py-2">
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-semibold break-all text-slate-900">{i.Contact}</p>
                    <p className="text-xs text-slate-600">
                      {roleLabel(t, i.Role)} ·{' '}
                      {t('expires {{date}} {{time}}', { date: formatDate(i.ExpiresAt), time: formatTime(i.ExpiresAt) })}
                    </p>
                  </div>
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={withdraw.isPending}
                    onClick={() =>
                      withdraw.mutate(i.InviteId, { onSuccess: () => toast.success(t('Invitation withdrawn')) })
                    }
                  >
                    {t('Withdraw')}
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}
