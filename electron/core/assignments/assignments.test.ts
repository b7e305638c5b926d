// Assignments through the whole core (IPC door, gateway, ledger, cache) against the real local
// service: answers are kept with the active assignment only, cache hits included; reopening costs
// nothing and works with the service stopped; a workfile exported here opens on a fresh data folder
// with every answer readable (and labelled as the file's, never cached); bad workfiles are refused whole.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReportDocument } from '../../../shared/report/document.ts';
import type { AppCore } from '../app-core.ts';
import { call, refusal, testCores, type OpenedCore } from '../core-test-kit.ts';
import { workfileChecksum, type WorkfileContent } from './workfile.ts';
import { comps2016Body } from '../../../shared/comparables/test-kit.ts';

const { store, openCore } = testCores('plat-assign-');

function propertyAt(address: string): string {
  const record = store().searchRecords({ kind: 'ownership', jurisdiction: '11001', filters: [{ field: 'address', op: 'eq', value: address }], limit: 1 }).items[0];
  const ref = record?.q_ids.find((id) => id.startsWith('prop_'));
  if (!ref) throw new Error(`no property at ${address} in the sample`);
  return ref;
}

const summaryRequest = (ref: string) => ({ request: { path: { q_id: ref } }, confirmed: true });
const reportRequest = (ref: string) => ({
  request: { body: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: ref } },
  confirmed: true,
});
const ledgerCount = async (core: AppCore) => (await call(core, 'listLedger', { filter: {}, limit: 1, offset: 0 })).total;

let subject: string;
let first: OpenedCore;
let assignmentId: string;
let exported: string;

beforeAll(async () => {
  subject = propertyAt('1708 21ST ST NW');
  first = await openCore();
});

describe('assignments in the core', () => {
  it('refuses details a person must correct with a clear invalid_payload, and creates nothing', async () => {
    const base = { name: 'Refused', capMicroUsd: null };
    const noDate = await refusal(first.core, 'createAssignment', { ...base, details: { subjectRef: subject, subjectLabel: 'x', effectiveDate: '2025-02-30' } });
    expect(noDate).toMatchObject({ code: 'invalid_payload', message: expect.stringMatching(/effectiveDate.*date that exists/) });
    const longClient = await refusal(first.core, 'createAssignment', { ...base, details: { subjectRef: subject, subjectLabel: 'x', client: 'c'.repeat(5_000) } });
    expect(longClient).toMatchObject({ code: 'invalid_payload', message: expect.stringMatching(/client/) });
    const notASubject = await refusal(first.core, 'createAssignment', { ...base, details: { subjectRef: '1708 21ST ST NW', subjectLabel: 'x' } });
    expect(notASubject).toMatchObject({ code: 'invalid_payload', message: expect.stringMatching(/subject must be a property/) });
    expect((await call(first.core, 'listProjects', {})).projects).toEqual([]);
  });

  it('keeps every answer used while an assignment is active, with its cost and citations, cache hits included', async () => {
    // Bought before the assignment exists: kept nowhere.
    const before = await call(first.core, 'getEntitySummary', summaryRequest(subject));
    expect(before.billing).toMatchObject({ cacheHit: false, chargedMicroUsd: 100_000 });

    const created = await call(first.core, 'createAssignment', {
      name: '1708 21st St NW appraisal',
      capMicroUsd: 5_000_000,
      details: { subjectRef: subject, subjectLabel: '1708 21ST ST NW', client: 'First Bank', intendedUse: 'Mortgage lending' },
      activate: true,
    });
    assignmentId = created.id;
    expect(created.assignment).toMatchObject({ subjectRef: subject, client: 'First Bank', effectiveDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect((await call(first.core, 'listProjects', {})).activeProjectId).toBe(assignmentId);
    const other = await call(first.core, 'createAssignment', { name: 'Other', capMicroUsd: null, details: { subjectRef: subject, subjectLabel: '' } });

    // Asked again while the assignment is active: a free cache hit, kept too.
    const again = await call(first.core, 'getEntitySummary', summaryRequest(subject));
    expect(again.billing).toMatchObject({ cacheHit: true, chargedMicroUsd: 0 });
    const report = await call(first.core, 'queryRecords', reportRequest(subject));
    expect(report.billing).toMatchObject({ cacheHit: false, chargedMicroUsd: 250_000 });

    const kept = await call(first.core, 'getAssignment', { id: assignmentId });
    expect(kept.answers).toEqual([
      expect.objectContaining({ operation: 'v4.summary', label: 'Summary of 1708 21ST ST NW', chargedMicroUsd: 0, cacheHit: true, parameters: `q_id=${subject}` }),
      expect.objectContaining({ operation: 'v3.recordQuery', label: 'Subject report for 1708 21ST ST NW', chargedMicroUsd: 250_000, cacheHit: false }),
    ]);
    for (const answer of kept.answers) expect(answer.citationCount).toBeGreaterThan(0);
    expect(kept.answers[1]?.requestId).toBe(report.billing.requestId);
    // Spent = what the ledger booked against the assignment (the summary was bought before it).
    expect(kept.spentMicroUsd).toBe(250_000);
    expect(kept.project.capMicroUsd).toBe(5_000_000);
    expect((await call(first.core, 'getAssignment', { id: other.id })).answers).toEqual([]);

    // No assignment active: nothing is kept.
    await call(first.core, 'setActiveProject', { id: null });
    await call(first.core, 'getSourceCatalog', { request: { query: {} } });
    expect((await call(first.core, 'getAssignment', { id: assignmentId })).answers).toHaveLength(2);
    await call(first.core, 'setActiveProject', { id: assignmentId });
  });

  it('keeps the appraiser\'s value choices, each with a reason', async () => {
    const field = 'building.year_built';
    expect(await refusal(first.core, 'setValueChoice', { assignmentId, field, choice: { alternativeKey: 'permit', reason: '   ' } })).toMatchObject({
      code: 'invalid_payload',
    });
    const set = await call(first.core, 'setValueChoice', { assignmentId, field, choice: { alternativeKey: 'permit', reason: ' 2013 permit for new construction ' } });
    expect(set.choices).toEqual([{ field, alternativeKey: 'permit', reason: '2013 permit for new construction', at: expect.any(String) }]);
    await call(first.core, 'setValueChoice', { assignmentId, field: 'ownership.owner_name', choice: { alternativeKey: 'a', reason: 'Deed' } });
    const removed = await call(first.core, 'setValueChoice', { assignmentId, field: 'ownership.owner_name', choice: null });
    expect(removed.choices.map((choice) => choice.field)).toEqual([field]);
    expect(await refusal(first.core, 'setValueChoice', { assignmentId: 'no-such', field, choice: null })).toMatchObject({ code: 'not_found' });
  });

  it('builds the subject report from the kept answers, free, and says what is missing with its price', async () => {
    const ledgerBefore = await ledgerCount(first.core);
    const document = (await call(first.core, 'getSubjectReport', { assignmentId })) as ReportDocument;
    expect(document).toMatchObject({ kind: 'subject-report', assignmentId, missing: [] });
    expect(document.cover).toMatchObject({ subjectRef: subject, client: 'First Bank', intendedUse: 'Mortgage lending' });
    expect(document.sections.length).toBeGreaterThan(0);
    expect(document.citations.length).toBeGreaterThan(0);
    expect(document.queryLog).toHaveLength(2);
    expect(document.spend).toEqual({ totalMicroUsd: 250_000, capMicroUsd: 5_000_000 });

    // Another subject, nothing bought for it yet: both purchases are missing, priced as buying them now.
    const otherSubject = propertyAt('1716 21ST ST NW');
    const fresh = await call(first.core, 'createAssignment', { name: '1716 21st St NW', capMicroUsd: null, details: { subjectRef: otherSubject, subjectLabel: '1716 21ST ST NW' } });
    const empty = (await call(first.core, 'getSubjectReport', { assignmentId: fresh.id })) as ReportDocument;
    expect(empty.missing.map((missing) => [missing.ipcOperation, missing.expectedCostMicroUsd]).sort()).toEqual([
      ['getEntitySummary', 100_000],
      ['queryRecords', 250_000],
    ]);
    expect(await ledgerCount(first.core)).toBe(ledgerBefore);

    // Bought as the document says, with the assignment active: the report is complete.
    await call(first.core, 'setActiveProject', { id: fresh.id });
    for (const missing of empty.missing) await call(first.core, missing.ipcOperation, { ...missing.request, confirmed: true });
    const complete = (await call(first.core, 'getSubjectReport', { assignmentId: fresh.id })) as ReportDocument;
    expect(complete.missing).toEqual([]);
    expect(complete.spend.totalMicroUsd).toBe(350_000);
    await call(first.core, 'setActiveProject', { id: assignmentId });
    expect(await refusal(first.core, 'getSubjectReport', { assignmentId: 'no-such' })).toMatchObject({ code: 'not_found' });
  });

  it('exports the workfile as one JSON file with answers, requests, citations, choices and the query log', async () => {
    const file = await call(first.core, 'exportAssignment', { id: assignmentId });
    expect(file.filename).toMatch(/^1708 21st St NW appraisal – workfile – \d{4}-\d{2}-\d{2}\.plat-workfile\.json$/);
    const content = JSON.parse(file.json) as WorkfileContent & { sha256: string };
    expect(content).toMatchObject({ format: 'plat-assignment-workfile', version: 2, assignment: { name: '1708 21st St NW appraisal' } });
    // The year built is a subject characteristic: its choice is kept in the comparables workfile (shared/comparables/subject/).
    expect(content.comparables?.subjectChoices).toEqual({ yearBuilt: { alternativeKey: 'permit', reason: '2013 permit for new construction', at: expect.any(String) } });
    expect(content.answers.map((answer) => [answer.operation, answer.connectionId])).toEqual([
      ['v4.summary', 'local-sample'],
      ['v3.recordQuery', 'local-sample'],
    ]);
    expect(content.answers[1]?.request).toMatchObject({ body: { mode: 'report', subject_property_ref: subject, limit: 20 } });
    expect(content.answers[1]?.citations.length).toBeGreaterThan(0);
    expect(content.choices).toHaveLength(0);
    expect(content.queryLog).toHaveLength(2);
    exported = file.json;
  });

  it('reopens an assignment and every answer in it free, with the service stopped', async () => {
    const ledgerBefore = await ledgerCount(first.core);
    const spendBefore = await call(first.core, 'getSpend', {});
    await first.stopService();
    const kept = await call(first.core, 'getAssignment', { id: assignmentId });
    for (const answer of kept.answers) {
      const opened = await call(first.core, 'getAssignmentAnswer', { id: assignmentId, answerId: answer.id });
      expect(opened.answer).toEqual(answer);
      expect(opened.envelope).toMatchObject({ status: 'ok' });
    }
    expect(await refusal(first.core, 'getAssignmentAnswer', { id: assignmentId, answerId: 'no-such' })).toMatchObject({ code: 'not_found' });
    expect(((await call(first.core, 'getSubjectReport', { assignmentId })) as ReportDocument).missing).toEqual([]);
    expect(await ledgerCount(first.core)).toBe(ledgerBefore);
    expect((await call(first.core, 'getSpend', {})).allTimeMicroUsd).toBe(spendBefore.allTimeMicroUsd);
  });
});

describe('a workfile on another machine', () => {
  let second: OpenedCore;
  beforeAll(async () => {
    second = await openCore();
  });

  it('opens with every answer readable, each saying it came in the file; the same requests are not answered from it', async () => {
    const imported = await call(second.core, 'importAssignment', { json: exported, fileName: 'appraisal.plat-workfile.json' });
    expect(imported).toMatchObject({ name: '1708 21st St NW appraisal', assignment: { subjectRef: subject, client: 'First Bank' }, capMicroUsd: 5_000_000 });
    const original = await call(first.core, 'getAssignment', { id: assignmentId });
    const copy = await call(second.core, 'getAssignment', { id: imported.id });
    const receivedIn = expect.stringMatching(/^Received in workfile “appraisal\.plat-workfile\.json”, exported by Plat test on .* for “1708 21st St NW appraisal”$/);
    expect(copy.answers.map(({ id: _id, ...rest }) => rest)).toEqual(original.answers.map(({ id: _id, ...rest }) => ({ ...rest, receivedIn })));
    expect(original.answers.every((answer) => answer.receivedIn === null)).toBe(true);
    expect(copy.choices).toEqual(original.choices);
    for (const [index, answer] of copy.answers.entries()) {
      const here = await call(second.core, 'getAssignmentAnswer', { id: imported.id, answerId: answer.id });
      const there = await call(first.core, 'getAssignmentAnswer', { id: assignmentId, answerId: original.answers[index]?.id ?? '' });
      expect(here.envelope).toEqual(there.envelope);
    }
    const report = (await call(second.core, 'getSubjectReport', { assignmentId: imported.id })) as ReportDocument;
    expect(report.missing).toEqual([]);

    // The same requests, asked on this machine: the file's answers are not the cache's, so they are bought.
    await call(second.core, 'setActiveProject', { id: imported.id });
    const summary = await call(second.core, 'getEntitySummary', summaryRequest(subject));
    expect(summary.billing).toMatchObject({ cacheHit: false, chargedMicroUsd: 100_000 });

    // Imported again: the name is taken, so the copy says where it came from.
    expect((await call(second.core, 'importAssignment', { json: exported })).name).toBe('1708 21st St NW appraisal (imported)');
  });

  it('refuses a file that is not Plat\'s, a newer format, or a damaged or edited one, writing nothing', async () => {
    const projectsBefore = (await call(second.core, 'listProjects', {})).projects;
    const cacheBefore = await call(second.core, 'getCacheStatus', {});
    const parsed = JSON.parse(exported) as WorkfileContent & { sha256: string };
    const edited = { ...parsed, answers: parsed.answers.map((answer, i) => (i === 0 ? { ...answer, chargedMicroUsd: 1 } : answer)) };
    const newer = { ...parsed, version: 3 };
    const badEnvelope = { ...parsed, answers: parsed.answers.map((answer) => ({ ...answer, envelope: { status: 'ok' } })) };
    // 5,000 levels inside an answer's envelope. Its checksum cannot even be computed (that walk
    // recurses), so the file is refused for its nesting before anything walks it.
    const deep = JSON.stringify({ ...parsed, answers: parsed.answers.map((answer, i) => (i === 0 ? { ...answer, envelope: '@DEEP@' } : answer)) }).replace(
      '"@DEEP@"',
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
    );
    const cases: Array<[string, string, RegExp]> = [
      ['cut short', exported.slice(0, exported.length / 2), /not complete JSON/],
      ['another JSON file', JSON.stringify({ name: 'x' }), /not a Plat assignment workfile/],
      ['a newer format', JSON.stringify(newer), /newer Plat \(format 3/],
      ['edited after export', JSON.stringify(edited), /changed or damaged after Plat exported it/],
      ['damaged shape', JSON.stringify({ ...parsed, answers: 'none' }), /damaged/],
      ['nested 5,000 levels deep', deep, /This workfile nests deeper than 64 levels; Plat refuses it/],
      ['answers that are not service answers', JSON.stringify({ ...badEnvelope, sha256: workfileChecksum({ ...badEnvelope, sha256: undefined } as unknown as WorkfileContent) }), /answer 1 .* is not an answer the service gives/],
    ];
    for (const [what, json, message] of cases) {
      const error = await refusal(second.core, 'importAssignment', { json });
      expect(error, what).toMatchObject({ code: 'invalid_payload', message: expect.stringMatching(message) });
      expect(error.message, what).toMatch(/Nothing was imported/);
    }
    expect((await call(second.core, 'listProjects', {})).projects).toEqual(projectsBefore);
    expect((await call(second.core, 'getCacheStatus', {})).entries).toBe(cacheBefore.entries);
  });
});

describe('comparables in the core', () => {
  // No limit: the service's default (20) applies, as the gateway normalises it.
  const compsBody = (ref: string, cursor?: string) => ({
    ...comps2016Body(ref, { toDate: '2016-12-31', includeUndated: true }),
    ...(cursor === undefined ? {} : { cursor }),
  });
  const workfileWith = (pages: Array<Record<string, unknown>>) => ({
    version: 1,
    criteria: { area: { kind: 'radius', radiusMiles: 0.5 }, monthsBack: 12, livingAreaBandPct: 20, sameUseCode: true, armsLengthOnly: true, includeUndated: true },
    searches: [
      {
        id: 'search-1',
        criteria: { area: { kind: 'radius', radiusMiles: 0.5 }, monthsBack: 12, livingAreaBandPct: 20, sameUseCode: true, armsLengthOnly: true, includeUndated: true },
        effectiveDate: '2017-01-01',
        radiusMiles: 0.5,
        pages,
        ranAt: '2017-01-03T10:00:00.000Z',
        dataAsOf: null,
        total: 179,
        returned: 40,
      },
    ],
    chosen: [],
    notUsed: {},
    rates: { timePctPerMonth: null, glaPerSqft: 150, perBedroom: null, perBath: null, perYearOfAge: null, perGradeStep: null, perConditionStep: null },
    rateSource: { glaPerSqft: 'appraiser' },
    manual: {},
    weights: {},
    reconciliation: { indicatedValueDollars: null, comment: '' },
    savedAt: null,
  });

  it('keeps the comparables work and reads its search\'s pages free, in order, with the service stopped; a workfile carries it', async () => {
    const here = await openCore();
    const assignment = await call(here.core, 'createAssignment', {
      name: 'Comparables 1708 21st St NW',
      capMicroUsd: null,
      details: { subjectRef: subject, subjectLabel: '1708 21ST ST NW', effectiveDate: '2017-01-01' },
      activate: true,
    });
    const empty = await call(here.core, 'getComparables', { assignmentId: assignment.id });
    expect(empty).toMatchObject({ subject: null, pages: [], workfile: { searches: [], chosen: [], savedAt: null } });

    // The search, bought page by page, and another v3 answer that is no page of it.
    const first = await call(here.core, 'queryRecords', { request: { body: compsBody(subject) }, confirmed: true });
    const cursor = (first.envelope as { meta: { next_cursor?: string } }).meta.next_cursor;
    if (cursor === undefined) throw new Error('expected a second page');
    const second = await call(here.core, 'queryRecords', { request: { body: compsBody(subject, cursor) }, confirmed: true });
    await call(here.core, 'queryRecords', { request: { body: { ...compsBody(subject), radius_miles: 0.25 } }, confirmed: true });
    expect([first.billing.chargedMicroUsd, second.billing.chargedMicroUsd]).toEqual([150_000, 150_000]);

    // Rules a person must correct are refused with what to correct.
    const twice = await refusal(here.core, 'saveComparables', { assignmentId: assignment.id, workfile: { ...workfileWith([compsBody(subject)]), chosen: ['rec_a', 'rec_a'] } });
    expect(twice).toMatchObject({ code: 'invalid_payload', message: expect.stringMatching(/chosen only once/) });
    expect(await refusal(here.core, 'getComparables', { assignmentId: 'no-such' })).toMatchObject({ code: 'not_found' });

    const saved = await call(here.core, 'saveComparables', { assignmentId: assignment.id, workfile: workfileWith([compsBody(subject), compsBody(subject, cursor)]) });
    expect(saved.workfile.savedAt).toEqual(expect.any(String));

    const ledgerBefore = await ledgerCount(here.core);
    await here.stopService();
    const read = await call(here.core, 'getComparables', { assignmentId: assignment.id });
    expect(read.workfile).toEqual(saved.workfile);
    expect(read.pages.map((page) => (page as { request_id: string }).request_id)).toEqual([first.billing.requestId, second.billing.requestId]);
    expect(read.pages).toEqual([first.envelope, second.envelope]);
    expect(await ledgerCount(here.core)).toBe(ledgerBefore);

    // On another machine: the same work, reading the same pages.
    const file = await call(here.core, 'exportAssignment', { id: assignment.id });
    expect((JSON.parse(file.json) as WorkfileContent).comparables).toEqual(saved.workfile);
    const there = await openCore();
    const imported = await call(there.core, 'importAssignment', { json: file.json });
    const copy = await call(there.core, 'getComparables', { assignmentId: imported.id });
    expect(copy.workfile).toEqual(saved.workfile);
    expect(copy.pages).toEqual(read.pages);
  });
});
