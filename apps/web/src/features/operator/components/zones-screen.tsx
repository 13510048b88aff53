import { Link, useSearchParams } from 'react-router';
import { operatorCan, OperatorZoneQuery, type OperatorZone, type OperatorZonePage } from '@parkit/contract';
import { type z } from 'zod';
import { useTranslation, type TFunction } from '../../../lib/i18n.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { exportZones, useZones, ZONES_PAGE, type ZoneSearch } from '../api/zones.ts';
import { zonePath } from '../lib/paths.ts';
import { useMembership } from './console-shell.tsx';

const STATUSES = ['include', 'exclude', 'only'] as const;
/** The search field, checked as the server checks `q`. */
const SearchForm = OperatorZoneQuery.pick({ q: true });
type SearchIn = z.input<typeof SearchForm>;
type SearchOut = z.output<typeof SearchForm>;

/** The search as the address bar keeps it (?q=&status=&page=), so Back from a zone returns to the same page. */
function useZoneSearch(): [
  ZoneSearch,
  (next: Partial<{ q: string; retired: ZoneSearch['retired']; page: number }>) => void,
] {
  const [params, setParams] = useSearchParams();
  const status = params.get('status');
  const retired = STATUSES.find((s) => s === status) ?? 'include';
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  const q = params.get('q') ?? '';
  const set = (next: Partial<{ q: string; retired: ZoneSearch['retired']; page: number }>) => {
    const merged = { q, retired, page: 1, ...next };
    const out = new URLSearchParams();
    if (merged.q) out.set('q', merged.q);
    if (merged.retired !== 'include') out.set('status', merged.retired);
    if (merged.page > 1) out.set('page', String(merged.page));
    setParams(out);
  };
  return [{ q, retired, offset: (page - 1) * ZONES_PAGE }, set];
}

/** Zones (/operator/{id}/zones): the operator's zones by number, searched, a page at a time. */
export function ZonesScreen() {
  const { t } = useTranslation();
  const membership = useMembership();
  const edits = operatorCan(membership.Role, 'zones');
  const [search, setSearch] = useZoneSearch();
  const zones = useZones(membership.OperatorId, search);
  const form = useSchemaForm<SearchIn, SearchOut>(SearchForm, { q: search.q });
  const submit = form.handleSubmit(({ q }) => setSearch({ q }));
  return (
    <section aria-labelledby="zones-title" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <h1 id="zones-title" className="flex-1 text-xl font-bold text-slate-900">
          {t('Zones')}
        </h1>
        <Button variant="ghost" size="sm" onClick={() => void exportZones(membership.OperatorId, 'csv')}>
          {t('Export CSV')}
        </Button>
        <Button variant="ghost" size="sm" onClick={() => void exportZones(membership.OperatorId, 'geojson')}>
          {t('Export GeoJSON')}
        </Button>
        {edits && (
          <>
            <ButtonLink to={zonePath(membership.OperatorId, 'import')} variant="secondary" size="sm">
              {t('Import zones')}
            </ButtonLink>
            <ButtonLink to={zonePath(membership.OperatorId, 'new')} size="sm">
              {t('New zone')}
            </ButtonLink>
          </>
        )}
      </div>
      <form
        role="search"
        aria-label={t('Search zones')}
        onSubmit={(e) => void submit(e)}
        noValidate
        className="mb-4 flex flex-wrap items-end gap-3"
      >
        <div className="min-w-0 flex-[2_1_14rem]">
          <TextField label={t('Number, name or address')} type="search" maxLength={100} {...form.field('q')} />
        </div>
        <div className="min-w-0 flex-[1_1_10rem]">
          <SelectField
            label={t('Status')}
            placeholder={t('Any status')}
            value={search.retired === 'include' ? '' : search.retired}
            onChange={(e) =>
              setSearch({ q: search.q, retired: (e.target.value || 'include') as ZoneSearch['retired'] })
            }
            options={[
              { value: 'exclude', label: t('Active') },
              { value: 'only', label: t('Retired') },
            ]}
          />
        </div>
        <Button type="submit" variant="secondary">
          {t('Search')}
        </Button>
      </form>
      <Loaded query={zones} skeleton={<Skeleton rows={5} className="h-12" />} failed={t('Zones could not be loaded.')}>
        {(page) => (
          <ZoneTable
            page={page}
            search={search}
            onPage={(p) => setSearch({ q: search.q, retired: search.retired, page: p })}
          />
        )}
      </Loaded>
    </section>
  );
}

function statusLabel(t: TFunction, zone: OperatorZone) {
  return zone.RetiredAt ? t('Retired') : t('Active');
}

function ZoneTable({
  page,
  search,
  onPage,
}: {
  page: OperatorZonePage;
  search: ZoneSearch;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const { OperatorId } = useMembership();
  if (page.Total === 0)
    return (
      <p className="text-slate-600">
        {search.q || search.retired !== 'include'
          ? t('No zone matches this search.')
          : t('This operator has no zones yet.')}
      </p>
    );
  const current = Math.floor(search.offset / ZONES_PAGE) + 1;
  const pages = Math.max(1, Math.ceil(page.Total / ZONES_PAGE));
  const from = search.offset + 1;
  const to = search.offset + page.Zones.length;
  return (
    <>
      <table className="w-full text-start text-sm">
        <caption className="sr-only">{t('Zones')}</caption>
        <thead className="sr-only md:not-sr-only">
          <tr className="border-b border-slate-200 text-slate-600">
            <th scope="col" className="py-2 pe-3 font-semibold">
              {t('Number')}
            </th>
            <th scope="col" className="py-2 pe-3 font-semibold">
              {t('Name and address')}
            </th>
            <th scope="col" className="py-2 pe-3 font-semibold">
              {t('Capacity')}
            </th>
            <th scope="col" className="py-2 pe-3 font-semibold">
              {t('Status')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {page.Zones.map((z) => (
            <tr key={z.ZoneId} className="flex flex-wrap gap-x-4 gap-y-1 py-3 md:table-row">
              <td className="font-semibold md:py-3 md:pe-3">
                <Link
                  to={zonePath(OperatorId, z.ZoneId)}
                  className="inline-flex min-h-11 items-center text-brand-800 underline underline-offset-2"
                  aria-label={t('Zone {{number}}', { number: z.ZoneNumber })}
                >
                  {z.ZoneNumber}
                </Link>
              </td>
              <td className="min-w-0 basis-full break-words md:py-3 md:pe-3">
                <span className="block font-medium text-slate-900">{z.Name}</span>
                <span className="block text-slate-600">{z.Address}</span>
              </td>
              <td className="md:py-3 md:pe-3">
                <span className="md:sr-only">{t('Capacity')}: </span>
                {t('{{count}} spaces', { count: z.Capacity })}
              </td>
              <td className="md:py-3 md:pe-3">
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-semibold ${z.RetiredAt ? 'bg-slate-200 text-slate-700' : 'bg-emerald-100 text-emerald-900'}`}
                >
                  {statusLabel(t, z)}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav aria-label={t('Pages')} className="mt-3 flex flex-wrap items-center gap-3">
        <p className="flex-1 text-sm text-slate-600" aria-live="polite">
          {t('{{from}}–{{to}} of {{total}}', { from, to, total: page.Total })}
        </p>
        {pages > 1 && (
          <>
            <Button variant="secondary" size="sm" disabled={current <= 1} onClick={() => onPage(current - 1)}>
              {t('Previous')}
            </Button>
            <Button variant="secondary" size="sm" disabled={current >= pages} onClick={() => onPage(current + 1)}>
              {t('Next')}
            </Button>
          </>
        )}
      </nav>
    </>
  );
}
