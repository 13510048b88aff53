import { describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type JSONWebKeySet } from 'jose';
import type { Citation, CitationFile, RightsDownload } from '@parkit/contract';
import { ApiError } from '../../../lib/api-client.ts';
import { syncQueue, type QueuedCitation, type QueueStore } from './citation-queue.ts';
import { checkOffline, type OfflinePack } from './offline-rights.ts';
import { verifyProof } from './proof.ts';

const T0 = Date.parse('2026-11-28T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const download: RightsDownload = {
  GeneratedAt: at(0).toISOString(),
  OperatorId: 1,
  Zones: [{ ZoneId: 7, ZoneNumber: '1001', Name: 'Main', MaxStayMinutes: 120, PaidNow: true }],
  Rights: [
    {
      ZoneId: 7,
      Kind: 'session',
      Id: '5',
      PlateNumber: 'ABC123',
      PlateState: 'TX',
      StartsAt: at(-10).toISOString(),
      EndsAt: at(30).toISOString(),
    },
    {
      ZoneId: 7,
      Kind: 'permit',
      Id: '9',
      PlateNumber: 'RES1',
      PlateState: null,
      StartsAt: at(-1000).toISOString(),
      EndsAt: null,
    },
  ],
  Chalks: [],
};
const pack: OfflinePack = { download, keys: { keys: [] }, violations: [] };

describe('checkOffline', () => {
  it('finds a right by zone, plate (however typed) and state, until it ends, with the download’s age', () => {
    expect(checkOffline(pack, { zoneId: 7, plate: 'abc-123', state: 'tx' }, at(20))).toEqual({
      right: download.Rights[0],
      ageMinutes: 20,
    });
    expect(checkOffline(pack, { zoneId: 7, plate: 'ABC 123', state: 'TX' }, at(30)).right).toBeNull();
    expect(checkOffline(pack, { zoneId: 7, plate: 'ABC123', state: 'OK' }, at(5)).right).toBeNull();
    expect(checkOffline(pack, { zoneId: 8, plate: 'ABC123', state: 'TX' }, at(5)).right).toBeNull();
    expect(checkOffline(pack, { zoneId: 7, plate: 'res 1', state: 'CA' }, at(600)).right?.Kind).toBe('permit');
    expect(checkOffline(pack, { zoneId: 7, plate: 'NOPE', state: 'TX' }, at(61))).toEqual({
      right: null,
      ageMinutes: 61,
    });
  });
});

describe('verifyProof', async () => {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'EdDSA', use: 'sig' };
  const keys: JSONWebKeySet = { keys: [jwk] };
  const sign = (exp: number, kid = 'k1', aud = 'parkit-enforcement') =>
    new SignJWT({ plate: 'ABC 123', st: 'TX', zone: '1001', op: 1 })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'parkit-proof+jwt', kid })
      .setIssuer('parkit')
      .setAudience(aud)
      .setSubject('5')
      .setIssuedAt(Math.floor(T0 / 1000))
      .setExpirationTime(exp)
      .sign(privateKey);
  const exp = Math.floor(at(30).getTime() / 1000);

  it('accepts a code signed by a kept key until its end', async () => {
    expect(await verifyProof(await sign(exp), keys, at(10))).toEqual({
      ok: true,
      sessionId: '5',
      plate: 'ABC 123',
      state: 'TX',
      zone: '1001',
      endsAt: at(30),
    });
  });
  it('refuses an ended code, an unknown key, another audience and a changed code', async () => {
    expect(await verifyProof(await sign(exp), keys, at(32))).toEqual({ ok: false, reason: 'expired' });
    expect(await verifyProof(await sign(exp, 'k2'), keys, at(10))).toEqual({ ok: false, reason: 'unknown-key' });
    expect(await verifyProof(await sign(exp, 'k1', 'parkit-app'), keys, at(10))).toEqual({
      ok: false,
      reason: 'invalid',
    });
    const token = await sign(exp);
    const [h, p, s] = token.split('.');
    const forged = `${h}.${btoa(atob(p!.replace(/-/g, '+').replace(/_/g, '/')).replace('ABC 123', 'XYZ 999'))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_')}.${s}`;
    expect(await verifyProof(forged, keys, at(10))).toEqual({ ok: false, reason: 'invalid' });
  });
});

function memoryStore(items: QueuedCitation[]): QueueStore & { items: Map<string, QueuedCitation> } {
  const map = new Map(items.map((i) => [i.id, structuredClone(i)]));
  return {
    items: map,
    list: async () => [...map.values()].map((i) => ({ ...i, photoIds: [...i.photoIds] })),
    put: async (i) => void map.set(i.id, { ...i, photoIds: [...i.photoIds] }),
  };
}
const item = (id: string, observedAt: string): QueuedCitation => ({
  id,
  operatorId: 1,
  ZoneId: 7,
  ZoneNumber: '1001',
  PlateNumber: 'ABC123',
  PlateState: 'TX',
  ViolationId: 3,
  Location: '',
  observedAt,
  photos: [new Blob(['png'], { type: 'image/png' })],
  photoIds: [],
  state: 'waiting',
});

describe('syncQueue', () => {
  it('uploads each photo once and sends each citation with its key; no connection keeps it waiting; a refusal is kept', async () => {
    const store = memoryStore([
      item('b', at(2).toISOString()),
      item('a', at(1).toISOString()),
      item('c', at(3).toISOString()),
    ]);
    const uploads: number[] = [];
    const issued: string[] = [];
    let online = false;
    const api = {
      uploadPhoto: async (operatorId: number): Promise<CitationFile> => {
        uploads.push(operatorId);
        return { FileId: `f${uploads.length}`, Kind: 'photo', FileName: 'p.png', ContentType: 'image/png', Size: 3 };
      },
      issue: async (q: QueuedCitation): Promise<Citation> => {
        if (!online) throw new ApiError(null, null, 'No connection');
        issued.push(`${q.id}:${q.photoIds.join(',')}:${q.observedAt}`);
        if (q.id === 'c') throw new ApiError(409, { message: 'covered' }, 'This plate has a right to park here now');
        return { CitationId: issued.length } as Citation;
      },
    };
    expect(await syncQueue(store, api)).toBe(0);
    expect(uploads).toHaveLength(1);
    expect(store.items.get('a')).toMatchObject({ state: 'waiting', photoIds: ['f1'] });
    online = true;
    expect(await syncQueue(store, api)).toBe(2);
    // a's photo is not uploaded again; the oldest goes first.
    expect(uploads).toHaveLength(3);
    expect(issued).toEqual([
      `a:f1:${at(1).toISOString()}`,
      `b:f2:${at(2).toISOString()}`,
      `c:f3:${at(3).toISOString()}`,
    ]);
    expect(store.items.get('a')).toMatchObject({ state: 'sent', citationId: 1 });
    expect(store.items.get('c')).toMatchObject({ state: 'refused', error: 'This plate has a right to park here now' });
    expect(await syncQueue(store, api)).toBe(0);
    expect(issued).toHaveLength(3);
  });
});
