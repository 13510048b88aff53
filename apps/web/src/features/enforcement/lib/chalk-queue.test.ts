import { describe, expect, it } from 'vitest';
import type { Chalk, RightsDownload } from '@parkit/contract';
import { ApiError } from '../../../lib/api-client.ts';
import { chalkOffline, syncChalks, withServerChalk, type ChalkStore, type QueuedChalk } from './chalk-queue.ts';
import type { OfflinePack } from './offline-rights.ts';

const T0 = Date.parse('2026-11-28T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const download: RightsDownload = {
  GeneratedAt: at(0).toISOString(),
  OperatorId: 1,
  Zones: [
    { ZoneId: 7, ZoneNumber: '1001', Name: 'Main', MaxStayMinutes: 120, PaidNow: false },
    { ZoneId: 8, ZoneNumber: '1002', Name: 'Side', MaxStayMinutes: 60, PaidNow: false },
  ],
  Rights: [],
  Chalks: [{ ZoneId: 7, PlateNumber: 'OLD1', PlateState: 'TX', FirstSeenAt: at(-30).toISOString() }],
};
const pack: OfflinePack = { download, keys: { keys: [] }, violations: [] };

const chalk = (id: string, observedAt: Date, over: Partial<QueuedChalk> = {}): QueuedChalk => ({
  id,
  operatorId: 1,
  ZoneId: 7,
  ZoneNumber: '1001',
  PlateNumber: 'ABC123',
  PlateState: 'TX',
  observedAt: observedAt.toISOString(),
  state: 'waiting',
  ...over,
});

function memoryStore(items: QueuedChalk[]): ChalkStore & { items: Map<string, QueuedChalk> } {
  const map = new Map(items.map((i) => [i.id, structuredClone(i)]));
  return {
    items: map,
    list: async () => [...map.values()].map((i) => ({ ...i })),
    put: async (i) => void map.set(i.id, { ...i }),
  };
}

describe('chalkOffline', () => {
  it('answers a downloaded chalk against the zone’s maximum stay, however the plate is typed', () => {
    expect(chalkOffline(pack, [], { zoneId: 7, plate: 'old-1' }, at(0))).toEqual({
      firstSeenAt: at(-30).toISOString(),
      minutes: 30,
      maxStayMinutes: 120,
      overstayed: false,
      pending: false,
    });
    expect(chalkOffline(pack, [], { zoneId: 7, plate: 'OLD1' }, at(91))).toMatchObject({
      minutes: 121,
      overstayed: true,
    });
    // Another zone, another plate, 24 hours on: not chalked.
    expect(chalkOffline(pack, [], { zoneId: 8, plate: 'OLD1' }, at(0))).toBeNull();
    expect(chalkOffline(pack, [], { zoneId: 7, plate: 'NEW1' }, at(0))).toBeNull();
    expect(chalkOffline(pack, [], { zoneId: 7, plate: 'OLD1' }, at(24 * 60 - 30))).toBeNull();
  });

  it('answers a chalk recorded on the device as pending until sent; the earliest sighting is the first', () => {
    const queued = [chalk('a', at(10), { ZoneId: 8, ZoneNumber: '1002' })];
    expect(chalkOffline(pack, queued, { zoneId: 8, plate: 'abc 123' }, at(75))).toEqual({
      firstSeenAt: at(10).toISOString(),
      minutes: 65,
      maxStayMinutes: 60,
      overstayed: true,
      pending: true,
    });
    // A chalk sent counts at the first sighting the server answered; a refused one not at all.
    const sent = chalk('b', at(5), { state: 'sent', chalkId: 3, firstSeenAt: at(-2).toISOString() });
    expect(chalkOffline(pack, [sent], { zoneId: 7, plate: 'ABC123' }, at(20))).toMatchObject({
      minutes: 22,
      pending: false,
    });
    expect(chalkOffline(pack, [chalk('c', at(5), { state: 'refused' })], { zoneId: 7, plate: 'ABC123' }, at(20))).toBe(
      null,
    );
    // The download's older chalk wins over a later one kept on the device; another operator's is not read.
    const later = chalk('d', at(1), { PlateNumber: 'OLD1' });
    expect(chalkOffline(pack, [later], { zoneId: 7, plate: 'OLD1' }, at(1))).toMatchObject({
      firstSeenAt: at(-30).toISOString(),
      pending: false,
    });
    expect(
      chalkOffline(pack, [chalk('e', at(1), { operatorId: 2 })], { zoneId: 7, plate: 'ABC123' }, at(2)),
    ).toBeNull();
  });
});

describe('withServerChalk (an online check)', () => {
  const server = (firstSeenAt: Date, max = 90): Chalk => ({
    ChalkId: 3,
    ZoneId: 7,
    PlateNumber: 'OLD1',
    PlateState: 'TX',
    FirstSeenAt: firstSeenAt.toISOString(),
    Officer: 'Another officer',
    MinutesParked: 0,
    MaxStayMinutes: max,
    Overstayed: false,
  });

  it('answers the server’s chalk of the plate, with the maximum stay it compared, in place of the download’s', () => {
    const known = withServerChalk(pack, { zoneId: 7, plate: 'old 1' }, server(at(-100)));
    expect(chalkOffline(known, [], { zoneId: 7, plate: 'OLD1' }, at(0))).toEqual({
      firstSeenAt: at(-100).toISOString(),
      minutes: 100,
      maxStayMinutes: 90,
      overstayed: true,
      pending: false,
    });
    // The download itself is not changed.
    expect(chalkOffline(pack, [], { zoneId: 7, plate: 'OLD1' }, at(0))?.minutes).toBe(30);
  });

  it('answers none when the server has none, and still adds a chalk of this device not sent yet', () => {
    const known = withServerChalk(pack, { zoneId: 7, plate: 'OLD1' }, null);
    expect(chalkOffline(known, [], { zoneId: 7, plate: 'OLD1' }, at(0))).toBeNull();
    const waiting = chalk('w', at(-5), { PlateNumber: 'OLD1' });
    expect(chalkOffline(known, [waiting], { zoneId: 7, plate: 'OLD1' }, at(0))).toMatchObject({
      minutes: 5,
      maxStayMinutes: 120,
      pending: true,
    });
    // Another plate's downloaded chalk stays.
    expect(known.download.Chalks).toEqual([]);
    const other = withServerChalk(pack, { zoneId: 7, plate: 'NEW1' }, null);
    expect(other.download.Chalks).toEqual(pack.download.Chalks);
  });
});

describe('syncChalks', () => {
  it('sends each waiting chalk, oldest first, with its key and moment; no connection keeps it; a refusal is kept', async () => {
    const store = memoryStore([
      chalk('b', at(2)),
      chalk('a', at(1)),
      chalk('c', at(3)),
      chalk('s', at(0), { state: 'sent' }),
    ]);
    const sent: string[] = [];
    let online = false;
    const api = {
      send: async (q: QueuedChalk): Promise<Chalk> => {
        if (!online) throw new ApiError(null, null, 'No connection');
        sent.push(`${q.id}:${q.observedAt}`);
        if (q.id === 'c')
          throw new ApiError(
            400,
            { message: 'too old' },
            'The moment seen is more than 24 hours ago: this chalk can no longer be recorded',
          );
        return { ChalkId: sent.length, FirstSeenAt: q.id === 'b' ? at(-5).toISOString() : q.observedAt } as Chalk;
      },
    };
    expect(await syncChalks(store, api)).toBe(0);
    expect(store.items.get('a')).toMatchObject({ state: 'waiting' });
    online = true;
    expect(await syncChalks(store, api)).toBe(2);
    expect(sent).toEqual([`a:${at(1).toISOString()}`, `b:${at(2).toISOString()}`, `c:${at(3).toISOString()}`]);
    expect(store.items.get('a')).toMatchObject({ state: 'sent', chalkId: 1, firstSeenAt: at(1).toISOString() });
    expect(store.items.get('b')).toMatchObject({ state: 'sent', chalkId: 2, firstSeenAt: at(-5).toISOString() });
    expect(store.items.get('c')).toMatchObject({
      state: 'refused',
      error: 'The moment seen is more than 24 hours ago: this chalk can no longer be recorded',
    });
    // A server that fails (5xx) or a signed-out device leaves the chalk waiting.
    store.items.set('d', chalk('d', at(4)));
    const failing = { send: async (): Promise<Chalk> => Promise.reject(new ApiError(503, null, 'Unavailable')) };
    expect(await syncChalks(store, failing)).toBe(0);
    expect(store.items.get('d')).toMatchObject({ state: 'waiting' });
    expect(await syncChalks(store, api)).toBe(1);
    expect(await syncChalks(store, api)).toBe(0);
    expect(sent).toHaveLength(4);
  });
});
