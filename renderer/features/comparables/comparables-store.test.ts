// The shared selection's saving: one save after a burst of edits, a refused save said and nothing
// lost, and the core's copy never replacing edits still waiting to be saved.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyComparablesWorkfile, type ComparablesWorkfile } from '../../../shared/comparables/model.ts';
import type { RecordedPlatCall } from '../../platform/fake-plat.ts';
import type * as PlatModule from '../../platform/plat.ts';
import { SAVE_DELAY_MS, useComparablesStore } from './comparables-store.ts';
import { setRate } from './comparables-model.ts';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
const core = vi.hoisted(() => ({ refuse: false }));

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule } = await import('../../platform/fake-plat.ts');
  const { PlatCallError } = await importOriginal<typeof PlatModule>();
  return fakePlatModule(importOriginal, calls, {
    saveComparables: (request) => {
      if (core.refuse) throw new PlatCallError({ code: 'disk_full', message: 'The disk is full: nothing was written.', retryable: true });
      return { workfile: { ...(request as { workfile: ComparablesWorkfile }).workfile, savedAt: '2026-05-01T10:00:00.000Z' } };
    },
  });
});

const saves = () => calls.filter((call) => call.operation === 'saveComparables').map((call) => (call.request as { workfile: ComparablesWorkfile }).workfile);
const store = () => useComparablesStore.getState();

beforeEach(() => {
  vi.useFakeTimers();
  calls.length = 0;
  core.refuse = false;
  store().reset();
  store().load('p1', emptyComparablesWorkfile());
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the comparables store', () => {
  it('saves a burst of edits once, after the pause, with the last of them', async () => {
    store().edit((w) => setRate(w, 'glaPerSqft', 1, 'appraiser'));
    store().edit((w) => setRate(w, 'glaPerSqft', 15, 'appraiser'));
    store().toggle('rec_a');
    expect(store().saveState).toBe('pending');
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS - 50);
    expect(saves()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(saves()).toHaveLength(1);
    expect(saves()[0]).toMatchObject({ rates: { glaPerSqft: 15 }, chosen: ['rec_a'] });
    expect(store()).toMatchObject({ saveState: 'saved', savedAt: '2026-05-01T10:00:00.000Z' });
  });

  it('says a save was refused and keeps every edit; the next edit tries again', async () => {
    core.refuse = true;
    store().toggle('rec_a');
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS + 10);
    expect(store().saveState).toBe('failed');
    expect((store().saveError as Error).message).toBe('The disk is full: nothing was written.');
    expect(store().workfile?.chosen).toEqual(['rec_a']);

    core.refuse = false;
    store().toggle('rec_b');
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS + 10);
    expect(store().saveState).toBe('saved');
    expect(saves().at(-1)?.chosen).toEqual(['rec_a', 'rec_b']);
  });

  it('does not let the core’s older copy replace edits waiting to be saved; takes it once they are saved', async () => {
    store().toggle('rec_a');
    store().load('p1', emptyComparablesWorkfile());
    expect(store().workfile?.chosen).toEqual(['rec_a']);
    await store().flush();
    const fromCore = { ...emptyComparablesWorkfile(), chosen: ['rec_a'], savedAt: '2026-05-01T10:00:00.000Z' };
    store().load('p1', fromCore);
    expect(store().workfile).toBe(fromCore);
    // Another assignment starts afresh.
    store().load('p2', emptyComparablesWorkfile());
    expect(store()).toMatchObject({ assignmentId: 'p2', highlightedId: null, saveState: 'saved' });
    expect(store().workfile?.chosen).toEqual([]);
  });

  it('keeps what it holds when the core’s copy is older (the view opened again reads its cache first)', async () => {
    store().toggle('rec_a');
    await store().flush();
    expect(store().savedAt).toBe('2026-05-01T10:00:00.000Z');
    const cached = { ...emptyComparablesWorkfile(), savedAt: '2026-05-01T09:00:00.000Z' };
    store().load('p1', cached);
    expect(store().workfile?.chosen).toEqual(['rec_a']);
    store().load('p1', emptyComparablesWorkfile());
    expect(store().workfile?.chosen).toEqual(['rec_a']);
    const fresh = { ...emptyComparablesWorkfile(), chosen: ['rec_a'], savedAt: '2026-05-01T10:00:00.000Z' };
    store().load('p1', fresh);
    expect(store().workfile).toBe(fresh);
  });

  it('says why a 21st comp is not added', () => {
    store().load('p3', { ...emptyComparablesWorkfile(), chosen: Array.from({ length: 20 }, (_, index) => `c${index}`) });
    store().toggle('one-more');
    expect(store().notice).toMatch(/at most 20 comps/);
    expect(store().workfile?.chosen).toHaveLength(20);
    expect(store().saveState).toBe('saved');
  });
});
