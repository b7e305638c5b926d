// The owner-holdings check on the real roll: every owner name's parcels and assessed total, straight
// from the rows, agree with what the holdings module gives (counted as rows, 1,037 names did not).
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultSampleDbPath } from '../electron/local-service/sample-store.ts';
import { checkOwnerHoldings, rollFigures } from './owner-holdings-check.ts';

const samplePresent = existsSync(defaultSampleDbPath());

describe.skipIf(!samplePresent)('owner-holdings-check on the sample roll', () => {
  it('counts a parcel on two rows once, its assessment from the row that carries it', () => {
    const { figures } = rollFigures(defaultSampleDbPath());
    expect(figures.get('BRUNO A CHUMPITAZI MD PC')).toEqual({ parcels: 3, assessed: 5_235_130 });
    expect(figures.get('CINDY CHANG')).toEqual({ parcels: 3, assessed: 446_040 });
    expect(figures.get('ANTHONY C CHENG YUN L CHENG')).toEqual({ parcels: 4, assessed: 0 });
  });

  it('finds no owner name whose holdings differ from the roll', async () => {
    const result = await checkOwnerHoldings();
    expect(result.rows).toBe(18_893);
    expect(result.owners).toBeGreaterThan(15_000);
    expect(result.differences.slice(0, 5)).toEqual([]);
    expect(result.differences).toHaveLength(0);
  }, 300_000);
});
