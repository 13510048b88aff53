import { useState } from 'react';
import { formatDate, formatTime, operatorCan, type PolicyDetail, type PolicySummary } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useAssignPolicy, usePolicies, usePolicy } from '../api/prices.ts';
import { NEW_POLICY, PolicyEditor } from './policy-editor.tsx';
import { useMembership } from './console-shell.tsx';
import { PriceEvents } from './price-events.tsx';
import { ZonePicker } from './zone-picker.tsx';

const card = 'rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200';

/**
 * Prices (/operator/{id}/prices): the operator's price policies, the editor of a new one or of the
 * next version of one, with its live preview; the zones a policy prices; events. Every role reads;
 * owners and managers change (docs/pricing.md).
 */
export function PricesScreen() {
  const { t } = useTranslation();
  const membership = useMembership();
  const operatorId = membership.OperatorId;
  const writes = operatorCan(membership.Role, 'prices');
  const policies = usePolicies(operatorId);
  const [chosen, setChosen] = useState<number | 'new' | null>(null);
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-4 lg:grid-cols-[1fr_3fr]">
        <section aria-labelledby="prices-title" className={card}>
          <h1 id="prices-title" className="mb-3 text-xl font-bold text-slate-900">
            {t('Prices')}
          </h1>
          {writes && (
            <Button variant="secondary" block onClick={() => setChosen('new')}>
              {t('New policy')}
            </Button>
          )}
          <Loaded
            query={policies}
            skeleton={<Skeleton rows={3} className="h-12" />}
            failed={t('Price policies could not be loaded.')}
          >
            {(list) => <PolicyList list={list} chosen={chosen} onChoose={setChosen} />}
          </Loaded>
        </section>
        <div className="min-w-0">
          {chosen === 'new' ? (
            <PolicyEditor
              key="new"
              operatorId={operatorId}
              policyId={null}
              name=""
              body={NEW_POLICY}
              onSaved={(id) => setChosen(id)}
            />
          ) : chosen === null ? (
            <p className={`${card} text-slate-600`}>{t('Choose a policy to see its versions and zones.')}</p>
          ) : (
            <PolicyPanel operatorId={operatorId} policyId={chosen} writes={writes} />
          )}
        </div>
      </div>
      <PriceEvents operatorId={operatorId} writes={writes} />
    </div>
  );
}

function PolicyList({
  list,
  chosen,
  onChoose,
}: {
  list: PolicySummary[];
  chosen: number | 'new' | null;
  onChoose: (id: number) => void;
}) {
  const { t } = useTranslation();
  if (list.length === 0) return <p className="mt-3 text-slate-600">{t('No price policy yet.')}</p>;
  return (
    <ul className="mt-3 flex flex-col gap-1">
      {list.map((p) => (
        <li key={p.PolicyId}>
          <button
            type="button"
            aria-current={chosen === p.PolicyId ? 'true' : undefined}
            onClick={() => onChoose(p.PolicyId)}
            className="min-h-11 w-full rounded-lg px-3 py-2 text-start break-words hover:bg-slate-100 aria-[current=true]:bg-brand-50 aria-[current=true]:font-semibold"
          >
            <span className="block text-slate-900">{p.Name}</span>
            <span className="block text-xs text-slate-600">
              {t('version {{current}} in force, {{latest}} latest', {
                current: p.CurrentVersion,
                latest: p.LatestVersion,
              })}{' '}
              · {t('{{count}} zones', { count: p.ZoneCount })}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function PolicyPanel({ operatorId, policyId, writes }: { operatorId: number; policyId: number; writes: boolean }) {
  const { t } = useTranslation();
  const policy = usePolicy(operatorId, policyId);
  return (
    <Loaded
      query={policy}
      skeleton={<Skeleton rows={4} className="h-16" />}
      failed={t('The price policy could not be loaded.')}
    >
      {(p) => {
        const latest = p.Versions.at(-1);
        return (
          <div className="flex flex-col gap-4">
            <section aria-labelledby="versions-title" className={card}>
              <h2 id="versions-title" className="mb-2 text-lg font-bold break-words text-slate-900">
                {p.Name}
              </h2>
              <ul className="flex flex-col gap-1 text-sm text-slate-700">
                {[...p.Versions].reverse().map((v) => (
                  <li key={v.Version}>
                    {t('Version {{version}}, in force from {{date}} {{time}}', {
                      version: v.Version,
                      date: formatDate(v.EffectiveFrom),
                      time: formatTime(v.EffectiveFrom),
                    })}
                    {v.Version === p.CurrentVersion && (
                      <span className="ms-2 rounded-full bg-green-100 px-2 text-green-800">{t('in force')}</span>
                    )}
                  </li>
                ))}
              </ul>
            </section>
            {writes && <AssignZones operatorId={operatorId} policy={p} />}
            {writes && latest && (
              <PolicyEditor
                key={`${p.PolicyId}-${latest.Version}`}
                operatorId={operatorId}
                policyId={p.PolicyId}
                name={p.Name}
                body={latest.Body}
                onSaved={() => undefined}
              />
            )}
          </div>
        );
      }}
    </Loaded>
  );
}

function AssignZones({ operatorId, policy }: { operatorId: number; policy: PolicyDetail }) {
  const { t } = useTranslation();
  const assign = useAssignPolicy(operatorId);
  const [picked, setPicked] = useState<number[]>([]);
  return (
    <section aria-labelledby="assign-title" className={card}>
      <h2 id="assign-title" className="mb-2 text-lg font-bold text-slate-900">
        {t('Zones priced by this policy')}
      </h2>
      <p className="mb-2 text-sm text-slate-600">{t('{{count}} zones', { count: policy.ZoneIds.length })}</p>
      <div className="flex flex-col gap-3">
        <ZonePicker
          operatorId={operatorId}
          exclude={policy.ZoneIds}
          picked={picked}
          onPick={setPicked}
          label={t('Price these zones by it from now on')}
        />
        <Button
          disabled={picked.length === 0}
          loading={assign.isPending}
          onClick={() =>
            assign.mutate(
              { policyId: policy.PolicyId, body: { ZoneIds: picked } },
              {
                onSuccess: () => {
                  toast.success(t('Zones priced by {{name}}', { name: policy.Name }));
                  setPicked([]);
                },
              },
            )
          }
        >
          {t('Price the chosen zones')}
        </Button>
      </div>
    </section>
  );
}
