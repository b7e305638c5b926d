// The workfile changes the Comparables view makes: one selection whichever place asks, the 20-comp
// limit, column order, rates and their source, lump sums, reasons, searches, and a workfile that goes
// to the core and comes back unchanged.
import { describe, expect, it } from 'vitest';
import { ComparablesWorkfileSchema, emptyComparablesWorkfile, type ComparablesWorkfile, type RateSuggestion } from '../../../shared/comparables/model.ts';
import {
  MAX_COMPS,
  acceptCopiedValues,
  acceptSuggestion,
  checkAcceptReason,
  takeUnsupportedSuggestion,
  addPageToCurrentSearch,
  addPageToMarketSearch,
  answerFacts,
  chooseComp,
  clearNotUsedReason,
  compNumber,
  dropComp,
  moveComp,
  nextPageBody,
  parseDollarText,
  parseRateText,
  parseValueText,
  recordSearch,
  rowAfterKey,
  searchRunOf,
  setManualAdjustment,
  setNotUsedReason,
  setRate,
  setReconciliation,
  setWeight,
  takeInSale,
  toggleComp,
  withdrawCopiedValues,
  workfileForSave,
} from './comparables-model.ts';
import compsFixture from '../../../shared/comparables/fixtures/dc-1708-comps-2016.json';

const fixture = compsFixture as unknown as { request: Record<string, unknown>; envelope: unknown };

const withChosen = (...ids: string[]): ComparablesWorkfile => ({ ...emptyComparablesWorkfile(), chosen: ids });

describe('selection', () => {
  it('chooses a comp as the last column and numbers it; choosing it again changes nothing', () => {
    const first = chooseComp(emptyComparablesWorkfile(), 'a');
    const second = chooseComp(first.workfile, 'b');
    expect(second.workfile.chosen).toEqual(['a', 'b']);
    expect(compNumber(second.workfile, 'b')).toBe(2);
    expect(compNumber(second.workfile, 'c')).toBeNull();
    const again = chooseComp(second.workfile, 'a');
    expect(again.workfile).toBe(second.workfile);
    expect(again.problem).toBeNull();
  });

  it('toggling from the map, the list or the grid is one operation: choose, then drop, then choose again at the end', () => {
    let workfile = withChosen('a', 'b', 'c');
    workfile = toggleComp(workfile, 'b').workfile; // the grid's "Drop comp 2"
    expect(workfile.chosen).toEqual(['a', 'c']);
    workfile = toggleComp(workfile, 'd').workfile; // a point on the map
    workfile = toggleComp(workfile, 'b').workfile; // a row of the list
    expect(workfile.chosen).toEqual(['a', 'c', 'd', 'b']);
  });

  it('refuses a 21st comp and says why, leaving the workfile as it was', () => {
    const full = withChosen(...Array.from({ length: MAX_COMPS }, (_, index) => `c${index}`));
    const change = toggleComp(full, 'one-more');
    expect(change.workfile).toBe(full);
    expect(change.problem).toMatch(/at most 20 comps/);
    // Dropping one makes room again.
    expect(chooseComp(dropComp(full, 'c3'), 'one-more').workfile.chosen).toHaveLength(MAX_COMPS);
  });

  it('moves a comp left and right within the grid, never past either end', () => {
    const workfile = withChosen('a', 'b', 'c');
    expect(moveComp(workfile, 'c', -1).chosen).toEqual(['a', 'c', 'b']);
    expect(moveComp(workfile, 'a', 1).chosen).toEqual(['b', 'a', 'c']);
    expect(moveComp(workfile, 'a', -1)).toBe(workfile);
    expect(moveComp(workfile, 'c', 5).chosen).toEqual(['a', 'b', 'c']);
    expect(moveComp(workfile, 'x', 1)).toBe(workfile);
  });

  it('keeps a dropped comp’s lump sums and weight, so choosing it again loses nothing', () => {
    let workfile = withChosen('a');
    workfile = setManualAdjustment(workfile, 'a', 'site', 5_000);
    workfile = setWeight(workfile, 'a', 'most');
    workfile = dropComp(workfile, 'a');
    expect(workfile.chosen).toEqual([]);
    workfile = chooseComp(workfile, 'a').workfile;
    expect(workfile.manual.a).toEqual({ site: 5_000 });
    expect(workfile.weights.a).toBe('most');
  });
});

const SUPPORTED: RateSuggestion['standing'] = { supported: true, expectedSign: 'either sign', reasons: [] };

describe('rates and adjustments', () => {
  it('records who set a rate: typed by the appraiser, or a suggestion accepted (rounded as typed)', () => {
    let workfile = setRate(emptyComparablesWorkfile(), 'glaPerSqft', 150, 'appraiser');
    expect(workfile.rates.glaPerSqft).toBe(150);
    expect(workfile.rateSource).toEqual({ glaPerSqft: 'appraiser' });
    const suggestion: RateSuggestion = { rate: 'timePctPerMonth', value: 0.41666, ciLow: 0.1, ciHigh: 0.7, coefficient: -1234, stdError: 300, why: null, standing: SUPPORTED };
    workfile = acceptSuggestion(workfile, suggestion);
    expect(workfile.rates.timePctPerMonth).toBe(0.42);
    expect(workfile.rateSource.timePctPerMonth).toBe('suggestion');
    workfile = setRate(workfile, 'glaPerSqft', null, 'appraiser');
    expect(workfile.rates.glaPerSqft).toBeNull();
    expect(workfile.rateSource).toEqual({ timePctPerMonth: 'suggestion' });
  });

  it('does not accept a suggestion the regression could not make', () => {
    const workfile = emptyComparablesWorkfile();
    const none: RateSuggestion = {
      rate: 'perBath',
      value: null,
      ciLow: null,
      ciHigh: null,
      coefficient: null,
      stdError: null,
      why: 'Baths do not vary.',
      standing: { supported: false, expectedSign: 'positive', reasons: ['Baths do not vary.'] },
    };
    expect(acceptSuggestion(workfile, none)).toBe(workfile);
  });

  // Issue 21: 1708 21st St NW's −$249,052 per bath (9 sales, copied characteristics accepted) was one click away.
  const perBath: RateSuggestion = {
    rate: 'perBath',
    value: -249_052,
    ciLow: -614_031,
    ciHigh: 115_927,
    coefficient: -249_052.2,
    stdError: 131_458,
    why: null,
    standing: { supported: false, expectedSign: 'positive: another bath is worth more', reasons: ['Against the expected sign.', 'The 95 % confidence interval straddles zero.'] },
  };

  it('does not take a suggestion shown as not supported without a written reason', () => {
    const workfile = emptyComparablesWorkfile();
    expect(acceptSuggestion(workfile, perBath)).toBe(workfile);
    expect(takeUnsupportedSuggestion(workfile, perBath, '   ', '2026-11-27T22:00:00Z')).toBe(workfile);
  });

  it('uses a suggestion shown as not supported with the appraiser’s reason, and drops the reason when they type their own rate', () => {
    let workfile = takeUnsupportedSuggestion(emptyComparablesWorkfile(), perBath, ' Matched-pair check agrees. ', '2026-11-27T22:00:00Z');
    expect(workfile.rates.perBath).toBe(-249_052);
    expect(workfile.rateSource.perBath).toBe('suggestion');
    expect(workfile.unsupportedRateReasons).toEqual({ perBath: { reason: 'Matched-pair check agrees.', at: '2026-11-27T22:00:00Z' } });
    // With the reason on file, accepting it again is allowed.
    expect(acceptSuggestion(workfile, perBath)).toEqual(workfile);
    workfile = setRate(workfile, 'perBath', 15_000, 'appraiser');
    expect(workfile.unsupportedRateReasons).toBeUndefined();
  });

  it('removes a lump sum cleared to nothing, and the comp’s entry with its last one', () => {
    let workfile = setManualAdjustment(emptyComparablesWorkfile(), 'a', 'site', 5_000);
    workfile = setManualAdjustment(workfile, 'a', 'exterior', -2_500);
    expect(workfile.manual).toEqual({ a: { site: 5_000, exterior: -2_500 } });
    workfile = setManualAdjustment(workfile, 'a', 'site', null);
    workfile = setManualAdjustment(workfile, 'a', 'exterior', null);
    expect(workfile.manual).toEqual({});
  });

  it('reads what the appraiser types, and says what to type instead', () => {
    expect(parseRateText('glaPerSqft', ' $1,250 ')).toEqual({ ok: true, value: 1250 });
    expect(parseRateText('timePctPerMonth', '0.5 %')).toEqual({ ok: true, value: 0.5 });
    expect(parseRateText('perYearOfAge', '−500')).toEqual({ ok: true, value: -500 });
    expect(parseRateText('perBath', '')).toEqual({ ok: true, value: null });
    expect(parseRateText('perBath', 'ten')).toMatchObject({ ok: false, error: expect.stringContaining('dollar amount') });
    expect(parseRateText('timePctPerMonth', '250')).toMatchObject({ ok: false });
    expect(parseDollarText('-5,000')).toEqual({ ok: true, value: -5000 });
    expect(parseDollarText('+12500')).toEqual({ ok: true, value: 12500 });
    expect(parseDollarText('5k')).toMatchObject({ ok: false });
    expect(parseValueText('1,250,000')).toEqual({ ok: true, value: 1_250_000 });
    expect(parseValueText('-1')).toMatchObject({ ok: false, error: expect.stringContaining('negative') });
  });

});

describe('reasons and reconciliation', () => {
  it('keeps the appraiser’s reason for a sale not used, and goes back to Plat’s', () => {
    let workfile = setNotUsedReason(emptyComparablesWorkfile(), 'x', 'condition', 'Gut renovation after the sale.');
    expect(workfile.notUsed).toEqual({ x: { reason: 'condition', note: 'Gut renovation after the sale.' } });
    workfile = clearNotUsedReason(workfile, 'x');
    expect(workfile.notUsed).toEqual({});
  });

  it('sets the indicated value and the comment separately', () => {
    let workfile = setReconciliation(emptyComparablesWorkfile(), { indicatedValueDollars: 1_300_000 });
    workfile = setReconciliation(workfile, { comment: 'Most weight to comps 1 and 3.' });
    expect(workfile.reconciliation).toEqual({ indicatedValueDollars: 1_300_000, comment: 'Most weight to comps 1 and 3.' });
  });
});

describe('copied values accepted', () => {
  it('keeps one acceptance per row and scope, trimmed, valid for the workfile file; withdrawing drops only that one', () => {
    const at = '2026-11-27T20:00:00.000Z';
    let workfile = acceptCopiedValues(emptyComparablesWorkfile(), { row: 'gla', compId: null, reason: ' Checked against the listings. ', at });
    workfile = acceptCopiedValues(workfile, { row: 'gla', compId: 'rec_1', reason: 'Measured.', at });
    workfile = acceptCopiedValues(workfile, { row: 'gla', compId: null, reason: 'Checked again.', at });
    expect(workfile.syntheticAccepted).toEqual([
      { row: 'gla', compId: 'rec_1', reason: 'Measured.', at },
      { row: 'gla', compId: null, reason: 'Checked again.', at },
    ]);
    expect(ComparablesWorkfileSchema.safeParse(workfile).success).toBe(true);
    expect(withdrawCopiedValues(workfile, 'gla', null).syntheticAccepted).toEqual([{ row: 'gla', compId: 'rec_1', reason: 'Measured.', at }]);
  });

  it('asks for a reason', () => {
    expect(checkAcceptReason('  ')).toMatchObject({ ok: false });
    expect(checkAcceptReason('x'.repeat(2_001))).toEqual({ ok: false, error: 'Keep the reason under 2,000 characters (it has 2,001).' });
    expect(checkAcceptReason(' Listing of 2016. ')).toEqual({ ok: true, value: 'Listing of 2016.' });
  });
});

describe('searches', () => {
  it('keeps a search as run from its answer: counts, as-of, the body sent', () => {
    const criteria = emptyComparablesWorkfile().criteria;
    const run = searchRunOf({ criteria, effectiveDate: '2017-01-01', radiusMiles: 0.5, body: fixture.request, envelope: fixture.envelope, ranAt: '2026-05-01T10:00:00.000Z', id: 'r1' });
    expect(run).toMatchObject({ id: 'r1', radiusMiles: 0.5, total: 14, returned: 14, pages: [fixture.request] });
    expect(run.dataAsOf).toBe('sample_v1_20231105_d7b3abbd34f3');
    expect(answerFacts(fixture.envelope).nextCursor).toBeNull();
    // Without a snapshot name: the newest public source's as-of (the synthetic sample's is not the records' date).
    const sources = [
      { as_of: '2017-02-05T00:00:00Z', synthetic: false },
      { as_of: '2022-11-20T00:00:00Z', synthetic: true },
    ];
    expect(answerFacts({ data: { items: [], sources }, meta: { next_cursor: 'c2' } })).toEqual({ total: null, returned: 0, dataAsOf: '2017-02-05', nextCursor: 'c2' });
  });

  it('makes the searched criteria current, keeps the last 50 runs, and adds a further page to the current one', () => {
    const base = searchRunOf({ criteria: { ...emptyComparablesWorkfile().criteria, monthsBack: 18 }, effectiveDate: '2017-01-01', radiusMiles: 0.5, body: { a: 1 }, envelope: { data: { items: [{}, {}], total: 5 } }, ranAt: 't', id: 'r' });
    let workfile = emptyComparablesWorkfile();
    for (let index = 0; index < 55; index++) workfile = recordSearch(workfile, { ...base, id: `r${index}` });
    expect(workfile.searches).toHaveLength(50);
    expect(workfile.searches[0]?.id).toBe('r5');
    expect(workfile.criteria.monthsBack).toBe(18);

    const body = nextPageBody(workfile.searches.at(-1)!, 'cur-2');
    expect(body).toEqual({ a: 1, cursor: 'cur-2' });
    workfile = addPageToCurrentSearch(workfile, body, { total: 5, returned: 3 });
    expect(workfile.searches.at(-1)).toMatchObject({ id: 'r54', pages: [{ a: 1 }, { a: 1, cursor: 'cur-2' }], total: 5, returned: 5 });
    expect(workfile.searches.at(-2)?.pages).toHaveLength(1);
  });

  it('adds a further page to the market-sales search alone, up to five pages, and nothing without one', () => {
    const market = searchRunOf({ criteria: emptyComparablesWorkfile().criteria, effectiveDate: '2017-01-01', radiusMiles: 0.5, body: { m: 1 }, envelope: { data: { items: [{}, {}], total: 9 } }, ranAt: 't', id: 'm' });
    const comps = { ...market, id: 'c', pages: [{ c: 1 }] };
    expect(addPageToMarketSearch(emptyComparablesWorkfile(), { m: 1, cursor: 'x' }, { total: 9, returned: 2 })).toEqual(emptyComparablesWorkfile());
    let workfile: ComparablesWorkfile = { ...emptyComparablesWorkfile(), searches: [comps], marketSearch: market };
    workfile = addPageToMarketSearch(workfile, nextPageBody(market, 'm-2'), { total: 9, returned: 2 });
    expect(workfile.marketSearch).toMatchObject({ id: 'm', pages: [{ m: 1 }, { m: 1, cursor: 'm-2' }], total: 9, returned: 4 });
    expect(workfile.searches).toEqual([comps]);
    for (let page = 3; page <= 7; page++) workfile = addPageToMarketSearch(workfile, { m: 1, cursor: `m-${page}` }, { total: 9, returned: 1 });
    expect(workfile.marketSearch?.pages).toHaveLength(5);
  });
});

describe('persistence', () => {
  it('a workfile edited every way goes to the core and comes back equal', () => {
    let workfile = withChosen('rec_a', 'rec_b');
    workfile = setRate(workfile, 'glaPerSqft', 150, 'appraiser');
    workfile = setManualAdjustment(workfile, 'rec_a', 'site', 5_000);
    workfile = setWeight(workfile, 'rec_b', 'none');
    workfile = setNotUsedReason(workfile, 'rec_c', 'size', 'Twice the subject’s size.');
    workfile = setReconciliation(workfile, { indicatedValueDollars: 1_250_000, comment: 'Comp 1 most similar.' });
    workfile = recordSearch(
      workfile,
      searchRunOf({ criteria: workfile.criteria, effectiveDate: '2017-01-01', radiusMiles: 0.5, body: fixture.request, envelope: fixture.envelope, ranAt: '2026-05-01T10:00:00.000Z' }),
    );
    const sent = workfileForSave(workfile);
    const received = ComparablesWorkfileSchema.parse(JSON.parse(JSON.stringify(sent)));
    expect(received).toEqual(workfile);
  });

  it('finds a workfile the core would refuse before it is sent', () => {
    expect(() => workfileForSave({ ...emptyComparablesWorkfile(), chosen: Array.from({ length: 21 }, (_, index) => `c${index}`) })).toThrow();
  });
});

describe('the candidate list’s keys', () => {
  it('moves by one with the arrows and to the ends with Home and End', () => {
    expect(rowAfterKey('ArrowDown', 0, 3)).toBe(1);
    expect(rowAfterKey('ArrowDown', 2, 3)).toBe(2);
    expect(rowAfterKey('ArrowUp', 0, 3)).toBe(0);
    expect(rowAfterKey('End', 0, 3)).toBe(2);
    expect(rowAfterKey('Home', 2, 3)).toBe(0);
    expect(rowAfterKey('x', 1, 3)).toBeNull();
    expect(rowAfterKey('ArrowDown', 0, 0)).toBeNull();
  });
});

describe('takeInSale', () => {
  it('chooses a screened-out sale only with a written reason, kept as the appraiser’s act and valid for the workfile', () => {
    const workfile = emptyComparablesWorkfile();
    expect(takeInSale(workfile, 'rec_1717', '   ', '2026-11-27T21:00:00Z')).toEqual({ workfile, problem: expect.stringMatching(/Write why you take this sale in/) });
    const taken = takeInSale(workfile, 'rec_1717', ' One deed, but the second lot is a parking pad. ', '2026-11-27T21:00:00Z');
    expect(taken.problem).toBeNull();
    expect(taken.workfile.chosen).toEqual(['rec_1717']);
    expect(taken.workfile.takenIn).toEqual({ rec_1717: { reason: 'One deed, but the second lot is a parking pad.', at: '2026-11-27T21:00:00Z' } });
    expect(ComparablesWorkfileSchema.parse(taken.workfile)).toEqual(taken.workfile);
  });
});
