// The real sample.db was built when the synthetic characteristics' dataset was called "imputed from
// the nearest DC CAMA residential record", which the build never did (the k-th lot of a square takes
// the k-th nearest record to the square's centroid): the store reads it under the name it has now.
import { afterAll, describe, expect, it } from 'vitest';
import { openSampleStore } from '../sample-store.ts';
import { SYNTHETIC_DATASET_NAME } from '../sample-keys.ts';

describe('the synthetic characteristics of the real sample', () => {
  const store = openSampleStore();
  afterAll(() => store.close());

  it('are cited to a dataset named by what the build did, not to the "nearest" record', () => {
    const source = store.listSources({ sourceId: 'plat_synthetic_characteristics' })[0];
    expect(source?.dataset).toBe(SYNTHETIC_DATASET_NAME);
    expect(JSON.stringify(store.listSources())).not.toMatch(/imputed from the nearest/);
  });
});
