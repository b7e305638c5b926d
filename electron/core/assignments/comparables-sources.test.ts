// Finding a comparables search's kept answers again: the answers are the embedded service's real
// ones (shared/comparables/fixtures), kept with the assignment as a call would keep them, and the
// workfile's last search names its pages by their request bodies. Also the workfile file format:
// comparables carried in format 2, format 1 still read, a damaged comparables part refused whole.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { emptyComparablesWorkfile, type CompSearchRun, type ComparablesWorkfile } from '../../../shared/comparables/model.ts';
import { openAssignment, refusalOf } from './assignments-test-kit.ts';
import { readWorkfile, workfileChecksum, type WorkfileContent } from './workfile.ts';

interface CompsFixture {
  request: Record<string, unknown>;
  envelope: { request_id: string } & Record<string, unknown>;
}
const fixture = <T,>(path: string): T => JSON.parse(readFileSync(new URL(`../../../shared/${path}`, import.meta.url), 'utf8')) as T;
const page1 = fixture<CompsFixture>('comparables/fixtures/dc-1708-comps-2016-with-undated.json');
const page2 = fixture<CompsFixture>('comparables/fixtures/dc-1708-comps-2016-with-undated-page-2.json');
const otherSearch = fixture<CompsFixture>('comparables/fixtures/dc-1708-comps-2016.json');
const subjectFixture = fixture<{ subjectRef: string; subject: unknown }>('report/fixtures/dc-1708-21st-st-nw.json');

function setUp() {
  const opened = openAssignment({ name: '1708 21st St NW', subjectRef: subjectFixture.subjectRef, start: '2017-01-03T10:00:00Z' });
  /** Keeps an answer with the assignment, as the core does after a call. */
  const keep = (body: Record<string, unknown>, envelope: unknown, chargedMicroUsd = 150_000) => opened.keep('v3.recordQuery', { body }, envelope, chargedMicroUsd);
  return { ...opened, keep };
}

const run = (pages: Array<Record<string, unknown>>, id = 'search-1'): CompSearchRun => ({
  id,
  criteria: { ...emptyComparablesWorkfile().criteria, monthsBack: 12, includeUndated: true },
  effectiveDate: '2017-01-01',
  radiusMiles: 0.5,
  pages,
  ranAt: '2017-01-03T10:00:00Z',
  dataAsOf: null,
  total: 179,
  returned: 179,
});

/** The same object with its keys in reverse order, at every level (as another writer might send it). */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([key, inner]) => [key, reordered(inner)]));
}

describe('the kept answers of a comparables search', () => {
  it('finds each page of the last search in page order, and takes no other v3 answer', () => {
    const { assignments, id, keep } = setUp();
    keep({ mode: 'report', projection: 'report_subject_v1', subject_property_ref: subjectFixture.subjectRef }, subjectFixture.subject, 250_000);
    // Page 2 kept before page 1 (bought in another order): the run's order decides.
    keep(page2.request, page2.envelope);
    keep(page1.request, page1.envelope);
    // Another search around the same subject, bought last: not a page of this run.
    keep(otherSearch.request, otherSearch.envelope);

    // Nothing saved yet: an empty workfile, the kept subject report, no pages; the report has no comparables.
    expect(assignments.comparablesSources(id)).toEqual({ workfile: emptyComparablesWorkfile(), subject: subjectFixture.subject, summary: null, pages: [], marketPages: [], lotAnswers: [], receivedIn: null });
    expect(assignments.reportSources(id)?.comparables).toBeNull();

    // The bodies as the screen recorded them: keys in another order are the same request.
    const saved = assignments.saveComparables(id, { ...emptyComparablesWorkfile(), searches: [run([reordered(page1.request), reordered(page2.request)] as Array<Record<string, unknown>>)] });
    const sources = assignments.comparablesSources(id);
    expect(sources.workfile).toEqual(saved);
    expect(sources.subject).toEqual(subjectFixture.subject);
    expect(sources.pages.map((page) => (page as { request_id: string }).request_id)).toEqual([page1.envelope.request_id, page2.envelope.request_id]);
    expect(sources.pages).toEqual([page1.envelope, page2.envelope]);
    expect(assignments.reportSources(id)?.comparables).toEqual({ workfile: saved, pages: [page1.envelope, page2.envelope], marketPages: [], lotAnswers: [] });
  });

  it('reads the kept searches of sale records (a deed’s other lots by its date and price), the latest answer to each, and no other record search', () => {
    const { assignments, id, keep } = openAssignment({ name: '1708 21st St NW', subjectRef: subjectFixture.subjectRef, start: '2017-01-03T10:00:00Z' });
    const query = (filter: Record<string, unknown>, kind = 'sale') => ({ query: { jurisdiction: '11001', kind, filter: JSON.stringify(filter), limit: 100 } });
    const deed = query({ last_sale_recordation_date: '2016-09-28', last_sale_price: 1736000 });
    const envelope = (requestId: string) => ({ contract_version: 'svc-v4', request_id: requestId, operation: 'search', status: 'ok', data: { items: [] }, error: null, meta: {} });
    keep('v4.search', deed, envelope('deed-1'), 20_000);
    keep('v4.search', query({ ssl: '0134    0158' }, 'permit'), envelope('permits'), 20_000);
    // The same search again later: the newer answer is the one read.
    keep('v4.search', deed, envelope('deed-2'), 0);
    assignments.saveComparables(id, { ...emptyComparablesWorkfile(), searches: [run([page1.request])] });
    expect(assignments.comparablesSources(id).lotAnswers).toEqual([envelope('deed-2')]);
    expect(assignments.reportSources(id)?.comparables?.lotAnswers).toEqual([envelope('deed-2')]);
  });

  it('takes only the last search, the latest answer to each page, and leaves out a page not kept', () => {
    const { assignments, id, keep } = setUp();
    keep(otherSearch.request, otherSearch.envelope);
    keep(page1.request, page1.envelope);
    // Page 1 bought again later (a refresh): the newer answer is the one read.
    const refreshed = { ...page1.envelope, request_id: 'req-refreshed' };
    keep(page1.request, refreshed);
    const first = run([otherSearch.request], 'search-1');
    const last = run([page1.request, page2.request], 'search-2');
    assignments.saveComparables(id, { ...emptyComparablesWorkfile(), searches: [first, last] });
    expect(assignments.comparablesSources(id).pages).toEqual([refreshed]);
  });

  it('matches a body that leaves out what the service defaults (the gateway normalises both alike)', () => {
    const { assignments, id, keep } = setUp();
    const { limit: _limit, ...withoutLimit } = otherSearch.request;
    keep({ ...withoutLimit, limit: 20 }, otherSearch.envelope);
    assignments.saveComparables(id, { ...emptyComparablesWorkfile(), searches: [run([withoutLimit])] });
    expect(assignments.comparablesSources(id).pages).toEqual([otherSearch.envelope]);
    // A body this Plat would not send finds nothing, and does not fail the read.
    assignments.saveComparables(id, { ...emptyComparablesWorkfile(), searches: [run([{ ...withoutLimit, radius_miles: 9 }])] });
    expect(assignments.comparablesSources(id).pages).toEqual([]);
  });

  it('reads and saves comparables of assignments only', () => {
    const { assignments, projects } = setUp();
    const plain = projects.create({ name: 'Plain project' });
    expect(() => assignments.comparablesSources(plain.id)).toThrow(/is a project, not an assignment/);
    expect(() => assignments.saveComparables('no-such', emptyComparablesWorkfile())).toThrow(/There is no such assignment/);
  });
});

describe('the workfile file with comparables', () => {
  const withComparables = (): ComparablesWorkfile => ({
    ...emptyComparablesWorkfile(),
    searches: [run([page1.request, page2.request])],
    chosen: ['rec_a', 'rec_b'],
    weights: { rec_a: 'most', rec_b: 'less' },
    reconciliation: { indicatedValueDollars: 1_450_000, comment: 'Most weight to comp 1, the closest in size and date.' },
  });

  function exported(comparables: ComparablesWorkfile | null) {
    const { assignments, id, keep } = setUp();
    keep(page1.request, page1.envelope);
    keep(page2.request, page2.envelope);
    if (comparables) assignments.saveComparables(id, comparables);
    return assignments.exportWorkfile(id).json;
  }

  /** A file as a Plat would have written it: the content and its checksum. */
  const written = (content: Record<string, unknown>) => JSON.stringify({ ...content, sha256: workfileChecksum(content as WorkfileContent) });

  it('carries the comparables whole, and an import restores them with the pages they read', () => {
    const json = exported(withComparables());
    const content = readWorkfile(json);
    expect(content.version).toBe(2);
    expect(content.comparables).toMatchObject({ ...withComparables(), savedAt: expect.any(String) });

    const elsewhere = setUp();
    const imported = elsewhere.assignments.importWorkfile(json, 'comps.plat-workfile.json');
    const sources = elsewhere.assignments.comparablesSources(imported.id);
    expect(sources.workfile).toEqual(content.comparables);
    expect(sources.pages).toEqual([page1.envelope, page2.envelope]);
    // The pages came in the file, not from a purchase here: the comparables screen says so.
    expect(sources.receivedIn).toMatch(/^Received in workfile “comps\.plat-workfile\.json”, exported by Plat test on /);
  });

  it('writes null for an assignment without comparables, and imports it without any', () => {
    const json = exported(null);
    expect(readWorkfile(json).comparables).toBeNull();
    const elsewhere = setUp();
    const imported = elsewhere.assignments.importWorkfile(json);
    expect(elsewhere.assignments.comparablesSources(imported.id).workfile).toEqual(emptyComparablesWorkfile());
  });

  it('still reads a format 1 file (written before comparables were kept)', () => {
    const { comparables: _none, ...v2 } = JSON.parse(exported(null)) as WorkfileContent & { sha256: string };
    const { sha256: _sha, ...content } = { ...v2, version: 1 };
    const v1 = written(content);
    expect(readWorkfile(v1)).toMatchObject({ version: 2, comparables: null, assignment: content.assignment });
    const elsewhere = setUp();
    const imported = elsewhere.assignments.importWorkfile(v1);
    expect(elsewhere.assignments.get(imported.id).answers).toHaveLength(2);
    expect(elsewhere.assignments.comparablesSources(imported.id).workfile).toEqual(emptyComparablesWorkfile());
    // A format 2 file must say what its comparables are (null when none).
    const { sha256: _sha2, ...withoutPart } = { ...v2, version: 2 };
    expect(() => readWorkfile(written(withoutPart))).toThrow(/damaged: its comparable sales .* not in the shape Plat writes at comparables/);
  });

  it('refuses a damaged comparables part whole, with a clear message, importing nothing', () => {
    const parsed = JSON.parse(exported(withComparables())) as WorkfileContent & { sha256: string };
    const { sha256: _sha, ...content } = parsed;
    const elsewhere = setUp();
    const before = elsewhere.projects.list({ includeArchived: true }).length;
    const cases: Array<[string, unknown, RegExp]> = [
      ['a weight that is none of most, less, none', { ...content.comparables, weights: { rec_a: 'best' } }, /comparable sales .* not in the shape Plat writes at comparables\.weights\.rec_a/],
      ['criteria missing', { ...content.comparables, criteria: undefined }, /comparable sales .* not in the shape Plat writes at comparables\.criteria/],
      ['a comp chosen twice', { ...content.comparables, chosen: ['rec_a', 'rec_a'] }, /comparable sales cannot be used: A comparable can be chosen only once; chosen more than once: rec_a/],
    ];
    for (const [what, comparables, message] of cases) {
      const error = refusalOf(() => elsewhere.assignments.importWorkfile(written({ ...content, comparables })));
      expect(error.platError, what).toMatchObject({ code: 'invalid_payload', message: expect.stringMatching(message) });
      expect(error.platError.message, what).toMatch(/Nothing was imported/);
    }
    // Changed after export (checksum no longer matches): refused too.
    const edited = { ...parsed, comparables: { ...parsed.comparables, chosen: ['rec_b'] } };
    expect(() => elsewhere.assignments.importWorkfile(JSON.stringify(edited))).toThrow(/checksum does not match/);
    expect(elsewhere.projects.list({ includeArchived: true })).toHaveLength(before);
  });
});
