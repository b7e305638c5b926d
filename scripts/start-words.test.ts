// `npm start`'s fallback says why in one line, as the README promises, whatever the cause.
import { describe, expect, it } from 'vitest';
import { FETCH_NOTICE, fallbackLine, fetchEnding } from './start-words.ts';

describe('npm start’s fallback words', () => {
  it('a failed fetch is one line: the attempt, why it failed, and the browser host', () => {
    const line = FETCH_NOTICE + fetchEnding('the download timed out', true);
    expect(line).toBe('Electron’s binary is not installed; fetching it (up to 30 s)… failed (the download timed out), so Plat starts in the browser host instead.');
    expect(line).not.toContain('\n');
  });

  it('a fetched binary with no display, and the causes without a fetch, are one line each', () => {
    for (const line of [FETCH_NOTICE + fetchEnding(null, false), FETCH_NOTICE + fetchEnding(null, true), fallbackLine('asked'), fallbackLine('no-display')]) {
      expect(line).not.toContain('\n');
    }
    expect(FETCH_NOTICE + fetchEnding(null, false)).toMatch(/fetched, but there is no display .*browser host instead\.$/);
  });
});
