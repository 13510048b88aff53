import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { defaultOperatorId, countForOperator } from '../zones/index.ts';
import { seedDemoZones, seedToZone } from './demo-zones.ts';
import { generateAustinZones } from './austin-zones.ts';

const database = await openDatabase({ dataDir: 'memory://' });
afterAll(() => database.close());

describe('seedDemoZones', () => {
  it('seeds the demo zones once, only while the operator has none', async () => {
    const operatorId = await defaultOperatorId(database.db);
    expect(await seedDemoZones(database.db, operatorId, 1200)).toBe(1200);
    expect(await countForOperator(database.db, operatorId)).toBe(1200);
    expect(await seedDemoZones(database.db, operatorId, 1200)).toBe(0);
    expect(await countForOperator(database.db, operatorId)).toBe(1200);
  });

  it('stores the generator paid hours as minutes, midnight as 1440', () => {
    const seed = { ...generateAustinZones(1)[0]!, paidFrom: '08:00', paidUntil: '00:00' };
    expect(seedToZone(seed)).toMatchObject({ paidFromMinute: 480, paidUntilMinute: 1440, zoneNumber: seed.zoneNumber });
    expect(seedToZone({ ...seed, paidFrom: '00:00', paidUntil: '24:00' })).toMatchObject({
      paidFromMinute: 0,
      paidUntilMinute: 1440,
    });
    expect(() => seedToZone({ ...seed, paidFrom: '08:00', paidUntil: '08:00' })).toThrow(/bad paid hours/);
  });
});
