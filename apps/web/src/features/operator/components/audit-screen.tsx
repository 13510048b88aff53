import { type AuditAction, type AuditEntry } from '@parkit/contract';
import { formatDate, formatTime } from '../../../lib/dates.ts';
import { useTranslation, type TFunction } from '../../../lib/i18n.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useAuditLog } from '../api/audit.ts';
import { useMembership } from './console-shell.tsx';

/** What an entry's action says (translated): every action the server writes has its words. */
function actionLabel(t: TFunction, action: string): string {
  const labels: Record<AuditAction, string> = {
    'invite.create': t('Invitation sent'),
    'invite.revoke': t('Invitation withdrawn'),
    'staff.join': t('Joined the team'),
    'staff.role': t('Role changed'),
    'staff.remove': t('Removed from the team'),
    'operator.update': t('Settings changed'),
    'key.create': t('API key made'),
    'key.revoke': t('API key revoked'),
    'zone.create': t('Zone added'),
    'zone.update': t('Zone changed'),
    'zone.retire': t('Zone retired'),
    'zone.import': t('Zones imported'),
    'policy.create': t('Price policy made'),
    'policy.version': t('Price policy changed'),
    'policy.assign': t('Price policy assigned to zones'),
    'event.create': t('Price event scheduled'),
    'event.cancel': t('Price event cancelled'),
    'session.refund': t('Session refunded'),
    'session.refund-failed': t('Refund failed'),
    'statement.issue': t('Statement issued'),
    'violation.create': t('Violation added'),
    'violation.update': t('Violation changed'),
    'violation.retire': t('Violation retired'),
    'citation.issue': t('Citation issued'),
    'citation.decide': t('Contest decided'),
    'citation.auto-cancel': t('Citation cancelled: a right to park was found'),
    'citation.card-refund-refused': t('Citation refund refused by the card: credited to the wallet'),
    'permit-type.create': t('Permit type added'),
    'permit-type.update': t('Permit type changed'),
    'permit-type.retire': t('Permit type retired'),
    'permit.approve': t('Permit approved'),
    'permit.refuse': t('Permit refused'),
  };
  // An entry written by a newer server than this page shows its action as written.
  return (labels as Record<string, string>)[action] ?? action;
}

/** The audit log (/operator/{id}/audit): every change, newest first, never editable. */
export function AuditScreen() {
  const { t } = useTranslation();
  const { OperatorId } = useMembership();
  const log = useAuditLog(OperatorId);
  return (
    <section aria-labelledby="audit-title" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h1 id="audit-title" className="text-xl font-bold text-slate-900">
        {t('Audit log')}
      </h1>
      <p className="mb-3 text-sm text-slate-600">
        {t('Every change made for this operator. Entries cannot be changed.')}
      </p>
      <Loaded
        query={log}
        skeleton={<Skeleton rows={4} className="h-16" />}
        failed={t('The audit log could not be loaded.')}
      >
        {(data) => {
          const entries = data.pages.flatMap((p) => p.Entries);
          if (entries.length === 0) return <p className="text-slate-600">{t('Nothing has been changed yet.')}</p>;
          return (
            <>
              <ol className="divide-y divide-slate-200">
                {entries.map((e) => (
                  <Entry key={e.Id} entry={e} />
                ))}
              </ol>
              {log.hasNextPage && (
                <Button
                  variant="secondary"
                  className="mt-3"
                  loading={log.isFetchingNextPage}
                  onClick={() => void log.fetchNextPage()}
                >
                  {t('Load older')}
                </Button>
              )}
            </>
          );
        }}
      </Loaded>
    </section>
  );
}

function Entry({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  return (
    <li className="flex flex-col gap-2 py-3 md:flex-row md:gap-6">
      <div className="md:w-56 md:shrink-0">
        <p className="font-semibold text-slate-900">{actionLabel(t, entry.Action)}</p>
        <p className="text-sm break-words text-slate-600">
          {t('by {{name}}', { name: entry.ActorName })} ·{' '}
          <time dateTime={entry.At}>
            {formatDate(entry.At)} {formatTime(entry.At)}
          </time>
        </p>
      </div>
      <div className="grid flex-1 gap-2 sm:grid-cols-2">
        <Snapshot title={t('Before')} value={entry.Before} />
        <Snapshot title={t('After')} value={entry.After} />
      </div>
    </li>
  );
}

/** A thing as it was: its fields, one a line (nested values as JSON). */
function Snapshot({ title, value }: { title: string; value: unknown }) {
  const fields = value && typeof value === 'object' ? Object.entries(value as Record<string, unknown>) : [];
  return (
    <div className="min-w-0 rounded-lg bg-slate-50 p-2 text-sm">
      <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{title}</p>
      {fields.length === 0 ? (
        <p className="text-slate-500">—</p>
      ) : (
        <dl className="grid grid-cols-[auto_1fr] gap-x-2">
          {fields.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-slate-500">{k}</dt>
              <dd className="break-all text-slate-900">{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
