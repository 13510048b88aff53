import { useState, type ChangeEvent } from 'react';
import { type z } from 'zod';
import { operatorCan, ZONE_FILE_MAX_CHARS, ZoneImportRequest, type ZoneImportReport } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { FieldShell } from '../../../components/ui/field.tsx';
import { Notice } from '../../../components/ui/loaded.tsx';
import { useImportZones } from '../api/zones.ts';
import { operatorPath } from '../lib/paths.ts';
import { useMembership } from './console-shell.tsx';

/** The file chosen, checked as the server checks it. */
const ImportForm = ZoneImportRequest.pick({ File: true, FileName: true, Format: true });
type ImportIn = z.input<typeof ImportForm>;
type ImportOut = z.output<typeof ImportForm>;

/**
 * Import zones (/operator/{id}/zones/import): a GeoJSON or CSV file, or a city's CDS Curbs feed (its
 * zones and policies answers, one file or two), is checked first (a dry run that lists the refused
 * rows), then imported whole, or only its rows that pass.
 */
export function ZoneImportScreen() {
  const { t } = useTranslation();
  const { OperatorId, Role } = useMembership();
  const run = useImportZones(OperatorId);
  const form = useSchemaForm<ImportIn, ImportOut>(ImportForm, { File: '', FileName: '', Format: 'zones' });
  const format = form.watch('Format') ?? 'zones';
  const [report, setReport] = useState<ZoneImportReport | null>(null);
  if (!operatorCan(Role, 'zones')) return <Notice>{t('Your role can read zones but not change them.')}</Notice>;

  const choose = async (e: ChangeEvent<HTMLInputElement>) => {
    setReport(null);
    form.clearErrors();
    const files = [...(e.target.files ?? [])];
    if (files.length === 0) return form.reset({ File: '', FileName: '', Format: format });
    // A file far over the limit is not read at all.
    const size = files.reduce((n, f) => n + f.size, 0);
    const texts =
      size > ZONE_FILE_MAX_CHARS * 4
        ? ['x'.repeat(ZONE_FILE_MAX_CHARS + 1)]
        : await Promise.all(files.map((f) => f.text()));
    // A CDS feed's zones and policies answers, chosen together, go as one list of answers.
    form.setValue('File', texts.length === 1 ? texts[0]! : `[${texts.join(',')}]`);
    form.setValue(
      'FileName',
      files
        .map((f) => f.name)
        .join(', ')
        .slice(0, 200),
    );
  };
  const chooseFormat = (next: 'zones' | 'cds') => {
    setReport(null);
    form.reset({ File: '', FileName: '', Format: next });
  };
  const send = async (body: ImportOut, commit: { SkipRefused: boolean } | null) => {
    try {
      const answer = await run.mutateAsync({
        ...body,
        DryRun: commit === null,
        SkipRefused: commit?.SkipRefused ?? false,
      });
      setReport(answer);
      if (commit) toast.success(t('{{count}} zones imported', { count: answer.Imported }));
    } catch (err) {
      showFormError(err, form.setError, ['File', 'FileName']);
    }
  };
  const check = form.handleSubmit((body) => send(body, null));
  const fileError = form.formState.errors.File?.message ?? form.formState.errors.FileName?.message;

  return (
    <section aria-labelledby="import-title" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <h1 id="import-title" className="flex-1 text-xl font-bold text-slate-900">
          {t('Import zones')}
        </h1>
        <ButtonLink to={operatorPath(OperatorId, 'zones')} variant="ghost" size="sm">
          {t('All zones')}
        </ButtonLink>
      </div>
      <form noValidate onSubmit={(e) => void check(e)} className="flex flex-col gap-3">
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 font-semibold text-slate-900">{t('What the file is')}</legend>
          {(['zones', 'cds'] as const).map((f) => (
            <label key={f} className="flex min-h-11 items-center gap-3 text-slate-900">
              <input
                type="radio"
                name="format"
                className="size-5"
                checked={format === f}
                onChange={() => chooseFormat(f)}
              />
              {f === 'zones' ? t('Zones as GeoJSON or CSV') : t('A city’s CDS Curbs feed (JSON)')}
            </label>
          ))}
        </fieldset>
        <p className="text-sm text-slate-600">
          {format === 'zones'
            ? t(
                'A GeoJSON file of points or a CSV file with a header row: zone_number, address, lat, lng, rate, max_stay_minutes, and optionally name, city, state, zip, kind, paid_days, paid_from, paid_until, capacity. The file is checked first; nothing is written until you import.',
              )
            : t(
                'The JSON of the city’s /curbs/zones and /curbs/policies: choose both files, or one file that holds both. Each Curb Zone becomes a zone and its policies a price policy; the feed’s ids are kept. The feed is checked first; nothing is written until you import.',
              )}
        </p>
        <FieldShell
          label={format === 'zones' ? t('Zone file (GeoJSON or CSV)') : t('CDS feed files (JSON)')}
          error={fileError}
        >
          {({ id, describedBy }) => (
            <input
              id={id}
              type="file"
              multiple={format === 'cds'}
              accept={
                format === 'zones'
                  ? '.csv,.json,.geojson,text/csv,application/json,application/geo+json'
                  : '.json,application/json'
              }
              aria-invalid={fileError ? true : undefined}
              aria-describedby={describedBy}
              onChange={(e) => void choose(e)}
              className="min-h-11 text-sm file:me-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:font-semibold"
            />
          )}
        </FieldShell>
        {form.watch('FileName') && (
          <p className="text-sm break-all text-slate-700">
            {t('{{name}} is ready to be checked.', { name: form.watch('FileName') })}
          </p>
        )}
        <div>
          <Button type="submit" variant="secondary" loading={form.submitting && report === null}>
            {t('Check the file')}
          </Button>
        </div>
      </form>
      {report && (
        <Report
          report={report}
          busy={run.isPending}
          onImport={(SkipRefused) => void form.handleSubmit((body) => send(body, { SkipRefused }))()}
        />
      )}
    </section>
  );
}

function Report({
  report,
  busy,
  onImport,
}: {
  report: ZoneImportReport;
  busy: boolean;
  onImport: (skipRefused: boolean) => void;
}) {
  const { t } = useTranslation();
  const refused = report.Refused.length;
  const done = !report.DryRun;
  return (
    <div className="mt-4 flex flex-col gap-3" aria-live="polite">
      <h2 className="text-lg font-bold text-slate-900">{done ? t('Imported') : t('Checked')}</h2>
      <p className="text-sm text-slate-700">
        {t('{{count}} rows in the file', { count: report.Rows })} · {t('{{count}} rows pass', { count: report.Valid })}{' '}
        · {t('{{count}} refused', { count: refused })}
        {done && <> · {t('{{count}} zones imported', { count: report.Imported })}</>}
        {done && report.Policies !== undefined && (
          <> · {t('{{count}} price policies written', { count: report.Policies })}</>
        )}
      </p>
      {report.IgnoredColumns.length > 0 && (
        <p className="text-sm break-words text-amber-800">
          {t('Ignored columns: {{columns}}', { columns: report.IgnoredColumns.join(', ') })}
        </p>
      )}
      {refused > 0 && (
        <table className="w-full text-start text-sm">
          <caption className="mb-1 text-start font-semibold text-slate-800">{t('Refused rows')}</caption>
          <thead>
            <tr className="border-b border-slate-200 text-slate-600">
              <th scope="col" className="py-1 pe-3">
                {t('Row')}
              </th>
              <th scope="col" className="py-1 pe-3">
                {t('Zone number')}
              </th>
              <th scope="col" className="py-1">
                {t('Reason')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {report.Refused.map((r) => (
              <tr key={r.Row}>
                <td className="py-1 pe-3 align-top tabular-nums">{r.Row}</td>
                <td className="py-1 pe-3 align-top break-all">{r.ZoneNumber ?? '—'}</td>
                <td className="py-1 align-top break-words">{r.Reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!done && report.Valid > 0 && (
        <div className="flex flex-wrap gap-2">
          {refused === 0 ? (
            <Button loading={busy} onClick={() => onImport(false)}>
              {t('Import {{count}} zones', { count: report.Valid })}
            </Button>
          ) : (
            <Button loading={busy} onClick={() => onImport(true)}>
              {t('Skip the refused rows and import {{count}} zones', { count: report.Valid })}
            </Button>
          )}
        </div>
      )}
      {!done && report.Valid === 0 && <p className="text-sm text-slate-700">{t('No row can be imported.')}</p>}
    </div>
  );
}
