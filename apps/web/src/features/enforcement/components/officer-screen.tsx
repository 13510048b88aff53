import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { formatTime } from '../../../lib/dates.ts';
import { useOnline } from '../../../lib/online.ts';
import { Button } from '../../../components/ui/button.tsx';
import type { RightKind } from '@parkit/contract';
import { chalkApi, chalkNow, checkOnline, downloadPack, queueApi, useOfficerZones } from '../api/officer.ts';
import { chalkOffline, syncChalks, withServerChalk, type ChalkSighting, type QueuedChalk } from '../lib/chalk-queue.ts';
import { isRefusal, syncQueue, type QueuedCitation } from '../lib/citation-queue.ts';
import { ChalkQueueList, chalkSightingText } from './chalk-queue-list.tsx';
import { CitationQueueList } from './citation-queue-list.tsx';
import { ProofCheck } from './proof-check.tsx';
import { ZonePicker } from './zone-picker.tsx';
import { checkOffline, normalisePlate, type OfflinePack } from '../lib/offline-rights.ts';
import { chalkStore, packStore, queueStore } from '../lib/offline-store.ts';

const input = 'min-h-12 w-full rounded-xl border border-slate-300 bg-white px-3 text-lg';
const card = 'flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200';

/**
 * The kept download is read again in the background once it is this old (at a check, or on the
 * page's minute timer while online): an online check asks the server about its one plate, so the
 * download only serves checks with no signal (docs/enforcement.md#checking-a-plate, issue 30).
 */
export const PACK_REFRESH_MS = 5 * 60_000;
const REFRESH_TICK_MS = 60_000;

/** A check's answer: online, the server's for the plate now; offline, the kept download's. */
interface Answer {
  right: { Kind: RightKind; EndsAt: string | null } | null;
  offline: boolean;
  /** Whole minutes since the download was read (an offline answer). */
  ageMinutes: number;
  chalk: ChalkSighting | null;
}

/**
 * /enforcement for a signed-in officer: check plates online (the server's answer for the one
 * plate) or, with no signal, against the downloaded rights of some zones, kept fresh in the
 * background; check proof codes offline, chalk, cite, sync.
 */
export function OfficerScreen({ operatorId, operatorName }: { operatorId: number; operatorName: string }) {
  const { t } = useTranslation();
  const online = useOnline();
  const zones = useOfficerZones(operatorId);
  const [chosen, setChosen] = useState<number[]>([]);
  const [pack, setPack] = useState<OfflinePack | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const [zoneId, setZoneId] = useState(0);
  const [plate, setPlate] = useState('');
  const [state, setState] = useState('');
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [checkProblem, setCheckProblem] = useState('');
  const [chalkText, setChalkText] = useState('');
  const [violationId, setViolationId] = useState(0);
  const [photo, setPhoto] = useState<File | null>(null);
  const [queue, setQueue] = useState<QueuedCitation[]>([]);
  const [chalks, setChalks] = useState<QueuedChalk[]>([]);
  const [syncing, setSyncing] = useState(false);

  const reloadQueue = useCallback(async () => {
    setQueue(await queueStore.list());
    setChalks(await chalkStore.list());
  }, []);
  // One run at a time: a second (the signal back while a chalk is sent) waits for the first, so
  // no item is sent twice at once (the server would answer its key as in flight, a 409).
  const running = useRef<Promise<void>>(Promise.resolve());
  const sync = useCallback(async () => {
    const run = async () => {
      setSyncing(true);
      try {
        await syncChalks(chalkStore, chalkApi);
        await syncQueue(queueStore, queueApi);
      } finally {
        setSyncing(false);
        await reloadQueue();
      }
    };
    running.current = running.current.then(run, run);
    await running.current;
  }, [reloadQueue]);

  // When the kept download was last read or tried (this device's clock), and whether a read is
  // under way; `generation` moves with each explicit download, so a background read that ends
  // after one does not put back the zones it replaced.
  const packReadAt = useRef(0);
  const refreshing = useRef(false);
  const generation = useRef(0);
  const refreshPack = useCallback(
    async (current: OfflinePack) => {
      if (refreshing.current || Date.now() - packReadAt.current < PACK_REFRESH_MS) return;
      refreshing.current = true;
      const tried = packReadAt.current;
      const started = generation.current;
      packReadAt.current = Date.now();
      try {
        const next = await downloadPack(
          operatorId,
          current.download.Zones.map((z) => z.ZoneId),
        );
        if (generation.current !== started) return;
        await packStore.put(operatorId, next);
        setPack(next);
      } catch {
        // The kept download stays; the next check or tick tries again.
        packReadAt.current = tried;
      } finally {
        refreshing.current = false;
      }
    },
    [operatorId],
  );

  useEffect(() => {
    void packStore.get(operatorId).then((p) => {
      if (p) packReadAt.current = Date.parse(p.download.GeneratedAt);
      setPack(p);
      if (p) setZoneId((z) => z || (p.download.Zones[0]?.ZoneId ?? 0));
      if (p) setViolationId((v) => v || (p.violations[0]?.ViolationId ?? 0));
    });
    void queueStore.list().then(setQueue);
    void chalkStore.list().then(setChalks);
  }, [operatorId]);
  useEffect(() => {
    if (online) void Promise.resolve().then(sync);
  }, [online, sync]);
  // While the page is open and online, an old download is read again in the background.
  useEffect(() => {
    if (!online || !pack) return;
    void Promise.resolve().then(() => refreshPack(pack));
    const timer = setInterval(() => void refreshPack(pack), REFRESH_TICK_MS);
    return () => clearInterval(timer);
  }, [online, pack, refreshPack]);

  const download = async () => {
    setBusy(true);
    setProblem('');
    generation.current++;
    try {
      const p = await downloadPack(operatorId, chosen);
      await packStore.put(operatorId, p);
      packReadAt.current = Date.now();
      setPack(p);
      setZoneId(p.download.Zones[0]?.ZoneId ?? 0);
      setViolationId(p.violations[0]?.ViolationId ?? 0);
    } catch {
      setProblem(t('The download failed. Try again.'));
    } finally {
      setBusy(false);
    }
  };

  /**
   * Online, the server answers for this one plate (GET Check, audited under the officer's name)
   * and its chalk beside it; with no connection, no answer in time or a server error, the kept
   * download answers (offline). A refused check (a bad plate or state) says so.
   */
  const check = async () => {
    if (!pack || !plate.trim()) return;
    setCheckProblem('');
    const q = { zoneId, plate, state: state.trim() };
    if (online) {
      const [asked, chalk] = await Promise.allSettled([checkOnline(operatorId, q), chalkNow(operatorId, q)]);
      if (asked.status === 'fulfilled') {
        const known = chalk.status === 'fulfilled' ? withServerChalk(pack, q, chalk.value) : pack;
        setAnswer({
          right: asked.value.Right,
          offline: false,
          ageMinutes: 0,
          chalk: chalkOffline(known, await chalkStore.list(), q, new Date()),
        });
        void refreshPack(pack);
        return;
      }
      if (isRefusal(asked.reason)) {
        setAnswer(null);
        setCheckProblem(
          asked.reason.status === 400
            ? t('Enter the plate and its two-letter state.')
            : t('The check failed. Try again.'),
        );
        return;
      }
    }
    const now = new Date();
    setAnswer({
      ...checkOffline(pack, q, now),
      offline: true,
      chalk: chalkOffline(pack, await chalkStore.list(), q, now),
    });
  };

  /**
   * Chalks the plate: a first sighting the device does not know yet is kept in the chalk queue
   * with its moment and sent at once when online (else when the signal is back); the answer is
   * what the device then knows (docs/enforcement.md#chalking).
   */
  const chalkPlate = async () => {
    if (!pack || !plate.trim()) return;
    const q = { zoneId, plate };
    const id = crypto.randomUUID();
    if (!chalkOffline(pack, await chalkStore.list(), q, new Date())) {
      await chalkStore.put({
        id,
        operatorId,
        ZoneId: zoneId,
        ZoneNumber: pack.download.Zones.find((z) => z.ZoneId === zoneId)?.ZoneNumber ?? '',
        PlateNumber: normalisePlate(plate),
        PlateState: state.trim().toUpperCase() || 'TX',
        observedAt: new Date().toISOString(),
        state: 'waiting',
      });
      // Listed at once, as a citation is; a send that waits on a failing server does not hide it.
      const kept = await chalkStore.list();
      setChalks(kept);
      const pending = chalkOffline(pack, kept, q, new Date());
      if (pending) setChalkText(chalkLine(pending));
      if (online) await sync();
    }
    const list = await chalkStore.list();
    setChalks(list);
    const seen = chalkOffline(pack, list, q, new Date());
    const refused = list.find((c) => c.id === id && c.state === 'refused');
    setChalkText(
      seen
        ? chalkLine(seen)
        : refused
          ? `${t('Refused')}: ${t(refused.error ?? '')}`
          : t('The zone is not in the download.'),
    );
  };

  const chalkLine = (c: ChalkSighting) => chalkSightingText(t, c);

  const cite = async () => {
    if (!pack || !photo || !violationId || !plate.trim()) return;
    const zone = pack.download.Zones.find((z) => z.ZoneId === zoneId);
    await queueStore.put({
      id: crypto.randomUUID(),
      operatorId,
      ZoneId: zoneId,
      ZoneNumber: zone?.ZoneNumber ?? '',
      PlateNumber: normalisePlate(plate),
      PlateState: state.trim().toUpperCase(),
      ViolationId: violationId,
      Location: '',
      observedAt: new Date().toISOString(),
      photos: [photo],
      photoIds: [],
      state: 'waiting',
    });
    setPhoto(null);
    await reloadQueue();
    if (online) await sync();
  };

  const zoneList = zones.data?.Zones ?? [];
  return (
    <main className="flex min-h-dvh flex-col bg-slate-100">
      <header className="bg-slate-900 px-4 py-3 text-white">
        <h1 className="text-xl font-bold">{t('Enforcement')}</h1>
        <p className="text-sm text-slate-300">{operatorName}</p>
        <p role="status" className="text-sm font-semibold">
          {online ? t('Online') : t('Offline: checks use the downloaded rights')}
        </p>
      </header>
      <div className="flex flex-col gap-4 p-4">
        <section className={card} aria-labelledby="zones-h">
          <h2 id="zones-h" className="text-lg font-bold">
            {t('Your zones')}
          </h2>
          {zones.isPending && online && <p>{t('Loading zones…')}</p>}
          {zones.isError && <p role="alert">{t('The zones could not be loaded.')}</p>}
          {!online && zoneList.length === 0 && <p>{t('The zones list needs a connection.')}</p>}
          {zones.isSuccess && zoneList.length === 0 && <p>{t('Your operator has no zones yet.')}</p>}
          <ZonePicker zones={zoneList} chosen={chosen} onChange={setChosen} />
          <Button
            type="button"
            className="min-h-14 text-lg"
            disabled={!online || chosen.length === 0}
            loading={busy}
            onClick={() => void download()}
          >
            {t('Download for offline use')}
          </Button>
          {problem && <p role="alert">{problem}</p>}
          {pack ? (
            <p>
              {t('Downloaded at {{time}}: {{count}} rights', {
                time: formatTime(new Date(pack.download.GeneratedAt)),
                count: pack.download.Rights.length,
              })}
            </p>
          ) : (
            <p>{t('Nothing downloaded yet.')}</p>
          )}
        </section>

        {pack && (
          <section className={card} aria-labelledby="check-h">
            <h2 id="check-h" className="text-lg font-bold">
              {t('Check a plate')}
            </h2>
            <label className="flex flex-col gap-1">
              {t('Zone')}
              <select className={input} value={zoneId} onChange={(e) => setZoneId(Number(e.target.value))}>
                {pack.download.Zones.map((z) => (
                  <option key={z.ZoneId} value={z.ZoneId}>
                    {t('Zone {{number}}', { number: z.ZoneNumber })}
                  </option>
                ))}
              </select>
            </label>
            <div className="grid grid-cols-[1fr_6rem] gap-3">
              <label className="flex flex-col gap-1">
                {t('Plate')}
                <input
                  className={`${input} font-mono uppercase`}
                  value={plate}
                  autoComplete="off"
                  onChange={(e) => setPlate(e.target.value)}
                />
              </label>
              <label className="flex flex-col gap-1">
                {t('State')}
                <input
                  className={`${input} uppercase`}
                  value={state}
                  maxLength={2}
                  autoComplete="off"
                  onChange={(e) => setState(e.target.value)}
                />
              </label>
            </div>
            <Button type="button" className="min-h-14 text-lg" onClick={() => void check()}>
              {t('Check plate')}
            </Button>
            {checkProblem && <p role="alert">{checkProblem}</p>}
            {answer && (
              <div
                role="status"
                className={`rounded-2xl p-4 text-lg font-bold ${answer.right ? 'bg-green-700 text-white' : 'bg-red-700 text-white'}`}
              >
                <p className="text-2xl">
                  {answer.right
                    ? t('PAID until {{time}}', {
                        time: answer.right.EndsAt ? formatTime(new Date(answer.right.EndsAt)) : '—',
                      })
                    : t('NO RIGHT TO PARK FOUND')}
                </p>
                {answer.right && <p>{t(RIGHT_NAMES[answer.right.Kind])}</p>}
                {answer.chalk && <p>{chalkLine(answer.chalk)}</p>}
                <p className="text-base font-normal">
                  {answer.offline
                    ? t('Offline answer: rights downloaded {{count}} minutes ago', { count: answer.ageMinutes })
                    : t('Online answer: rights read just now')}
                </p>
              </div>
            )}
            <Button
              type="button"
              variant="secondary"
              className="min-h-12"
              disabled={!plate.trim()}
              onClick={() => void chalkPlate()}
            >
              {t('Chalk this plate')}
            </Button>
            {chalkText && <p role="status">{chalkText}</p>}
          </section>
        )}

        {pack && <ProofCheck pack={pack} />}

        {pack && (
          <section className={card} aria-labelledby="cite-h">
            <h2 id="cite-h" className="text-lg font-bold">
              {t('Cite this plate')}
            </h2>
            <label className="flex flex-col gap-1">
              {t('Violation')}
              <select className={input} value={violationId} onChange={(e) => setViolationId(Number(e.target.value))}>
                {pack.violations.map((v) => (
                  <option key={v.ViolationId} value={v.ViolationId}>
                    {v.Code} · {v.Description}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-1">
              {t('Photo')}
              <input
                type="file"
                accept="image/*"
                capture="environment"
                className="min-h-12"
                onChange={(e) => setPhoto(e.target.files?.[0] ?? null)}
              />
            </label>
            <Button
              type="button"
              className="min-h-14 text-lg"
              disabled={!photo || !plate.trim() || !violationId}
              onClick={() => void cite()}
            >
              {t('Issue citation')}
            </Button>
          </section>
        )}

        <CitationQueueList queue={queue} online={online} syncing={syncing} onSync={() => void sync()} />

        <ChalkQueueList chalks={chalks} />
      </div>
    </main>
  );
}

const RIGHT_NAMES = {
  session: 'A paid session',
  permit: 'A permit',
  'visitor-day': 'A visitor day',
  'assigned-right': 'A right assigned by a partner app',
} as const;
