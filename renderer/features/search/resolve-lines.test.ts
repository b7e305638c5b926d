import { describe, expect, it } from 'vitest';
import { V2ResolutionItemSchema } from '../../../shared/service/index.ts';
import {
  buildResolveBatch,
  detectScheme,
  identityText,
  linesWithMore,
  moreCandidatesBody,
  outcomeRowsOf,
  parseResolveLines,
  runMatchesLines,
  schemeProblem,
} from './resolve-lines.ts';
import type { ResolveRun } from './search-store.ts';

describe('detecting what a pasted line is', () => {
  it.each([
    ['1716 21ST ST NW', 'address'],
    ['0150    0295', 'ssl'],
    ['0150 0295', 'ssl'],
    ['0150-0295', 'ssl'],
    ['0066S   0800', 'ssl'],
    ['PAR 02600014', 'ssl'],
    ['13195000', 'account_no'],
    ['309673', 'mar_id'],
    ['prop_856ad90f-6142-5733-94b5-28bd3e08e66c', 'entity_ref'],
  ])('%s is %s', (line, scheme) => {
    expect(detectScheme(line)).toBe(scheme);
  });

  it('explains why a value does not fit a hand-picked scheme', () => {
    expect(schemeProblem('ssl', '1716 21ST ST NW')).toMatch(/Not an SSL/);
    expect(schemeProblem('mar_id', '12a')).toMatch(/digits only/);
    expect(schemeProblem('address', '!!!')).toMatch(/no street name/);
    expect(schemeProblem('address', 'MAIN STREET')).toMatch(/no house number/);
    expect(schemeProblem('account_no', '13195000')).toBe(null);
  });
});

describe('a pasted batch', () => {
  const text = '1716 21ST ST NW\n\n0150 0295\n???\n13195000\n';

  it('numbers lines as the editor does, skips blanks, and applies a hand-picked scheme by line text', () => {
    const lines = parseResolveLines(text, { '13195000': 'mar_id' });
    expect(lines.map((line) => [line.lineNumber, line.scheme, line.schemeChosen])).toEqual([
      [1, 'address', false],
      [3, 'ssl', false],
      [4, 'address', false],
      [5, 'mar_id', true],
    ]);
  });

  it('sends the good lines as valid resolution items and refuses the bad one with its reason', () => {
    const batch = buildResolveBatch(parseResolveLines(text), 'area_us_dc');
    expect(batch.refused.map((refused) => [refused.line.lineNumber, refused.reason])).toEqual([[4, 'Not an address: it has no street name.']]);
    expect(batch.body?.items).toHaveLength(3);
    for (const item of batch.body?.items ?? []) expect(V2ResolutionItemSchema.safeParse(item).success).toBe(true);
    expect(batch.body?.items[1]).toEqual({
      client_id: 'L3',
      subject_kind: 'identifier',
      identifiers: [{ scheme: 'ssl', value: '0150 0295' }],
      include_retired_identifiers: false,
      area_uid: 'area_us_dc',
    });
  });

  it('has no body when no line can be sent', () => {
    expect(buildResolveBatch(parseResolveLines('???\n'), '').body).toBe(null);
  });

  it('caps a batch at 100 lines and says so on the rest', () => {
    const lines = parseResolveLines(Array.from({ length: 102 }, (_, i) => `${i + 1} MAIN ST`).join('\n'));
    expect(lines.filter((line) => line.problem !== null).map((line) => line.lineNumber)).toEqual([101, 102]);
  });
});

describe('outcomes', () => {
  const run: ResolveRun = {
    body: { items: [], candidate_limit: 10 },
    areaUid: '',
    lines: [
      { lineNumber: 1, clientId: 'L1', value: '1716 21ST ST NW', scheme: 'address', refusedReason: null },
      { lineNumber: 2, clientId: 'L2', value: '???', scheme: 'address', refusedReason: 'Not an address: it has no street name.' },
      { lineNumber: 3, clientId: 'L3', value: '1 NOWHERE ST', scheme: 'address', refusedReason: null },
    ],
  };

  it('gives every line a row: candidates, refusals as invalid_input, and the service reason for a miss', () => {
    const rows = outcomeRowsOf(run, [
      {
        client_id: 'L1',
        outcome: 'ok',
        candidates: [
          { entity_ref: 'prop_a', entity_kind: 'property', match_basis: 'address_exact', precision: 'exact' },
          { entity_ref: 'parc_b', entity_kind: 'parcel', match_basis: 'address_premise', precision: 'exact' },
        ],
      },
      { client_id: 'L3', outcome: 'not_found', candidates: [], reason: 'No entity in the sample matches these identifiers.' },
    ]);
    expect(rows.map((row) => [row.lineNumber, row.outcome, row.candidate?.entity_ref ?? null, row.reason])).toEqual([
      [1, 'ok', 'prop_a', null],
      [1, 'ok', 'parc_b', null],
      [2, 'invalid_input', null, 'Not an address: it has no street name.'],
      [3, 'not_found', null, 'No entity in the sample matches these identifiers.'],
    ]);
  });

  it('names a candidate by its identity', () => {
    expect(identityText({ address: '1716 21ST ST NW', ssl: '0065    0004' })).toBe('1716 21ST ST NW · 0065    0004');
    expect(identityText(undefined)).toBe('');
  });
});

describe('results and the lines they answered', () => {
  const text = '1716 21ST ST NW\n0150 0295\n';
  const runOf = (pasted: string, areaUid = ''): ResolveRun => {
    const lines = parseResolveLines(pasted);
    const batch = buildResolveBatch(lines, areaUid);
    return {
      body: batch.body ?? { items: [], candidate_limit: 10 },
      areaUid,
      lines: lines.map((line) => ({ lineNumber: line.lineNumber, clientId: line.clientId, value: line.value, scheme: line.scheme, refusedReason: line.problem })),
    };
  };

  it('still match the text only while its lines, schemes and area are the ones sent', () => {
    const run = runOf(text);
    expect(runMatchesLines(run, parseResolveLines(text), '')).toBe(true);
    expect(runMatchesLines(run, parseResolveLines(`${text}\n\n`), '')).toBe(true);
    expect(runMatchesLines(run, parseResolveLines(`\n${text}`), '')).toBe(false);
    expect(runMatchesLines(run, parseResolveLines('1716 21ST ST NW\n0150 0296\n'), '')).toBe(false);
    expect(runMatchesLines(run, parseResolveLines(text, { '0150 0295': 'address' }), '')).toBe(false);
    expect(runMatchesLines(run, parseResolveLines(text), 'area_us_dc')).toBe(false);
  });

  it('count the candidates the service has, not the page that came back, and add further pages to their line', () => {
    const run = runOf('1 MAIN ST\n');
    const candidate = (ref: string) => ({ entity_ref: ref, entity_kind: 'address', match_basis: 'address_partial', precision: 'approximate' });
    const first = { client_id: 'L1', outcome: 'ambiguous', candidates: [candidate('addr_1'), candidate('addr_2')], total_candidates: 303, next_candidate_cursor: 'c2' };
    expect(outcomeRowsOf(run, [first]).map((row) => `${row.candidateIndex + 1} of ${row.candidateCount}`)).toEqual(['1 of 303', '2 of 303']);
    expect(linesWithMore(run, [first])).toEqual([{ clientId: 'L1', lineNumber: 1, value: '1 MAIN ST', shown: 2, total: 303, cursor: 'c2' }]);
    expect(moreCandidatesBody(run, 'L1', 'c2')).toEqual({ items: [run.body.items[0]], candidate_limit: 50, candidate_cursors: { L1: 'c2' } });
    expect(moreCandidatesBody(run, 'L9', 'c2')).toBeNull();

    const second = { client_id: 'L1', outcome: 'ambiguous', candidates: [candidate('addr_3')], total_candidates: 303, next_candidate_cursor: 'c3' };
    const rows = outcomeRowsOf(run, [first], { L1: [second] });
    expect(rows.map((row) => row.candidate?.entity_ref)).toEqual(['addr_1', 'addr_2', 'addr_3']);
    expect(linesWithMore(run, [first], { L1: [second] })[0]).toMatchObject({ shown: 3, cursor: 'c3' });
    expect(linesWithMore(run, [first], { L1: [{ ...second, next_candidate_cursor: undefined }] })).toEqual([]);
    // Without total_candidates (another service), the page is all that is known.
    expect(outcomeRowsOf(run, [{ client_id: 'L1', outcome: 'ok', candidates: [candidate('addr_1')] }])[0]?.candidateCount).toBe(1);
  });
});
