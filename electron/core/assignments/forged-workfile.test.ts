// The forged workfile (issue 20): an exported workfile whose owner was changed to "MALLORY
// FORGED-OWNER" and whose plain sha256 was recomputed reads as a valid file. Imported, it must change
// nothing outside its own assignment (no cache entry, no free "already bought" answer, nothing in
// another assignment's report), and inside it every answer says it was received in that file, in the
// assignment page, the report, its citations and Verify; re-checking is offered with its price, buys
// the answers again and lists what changed.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReportDocument } from '../../../shared/report/document.ts';
import { citationRows } from '../../../shared/report/build-subject-report.ts';
import { call, testCores, type OpenedCore } from '../core-test-kit.ts';
import { workfileChecksum, type WorkfileContent } from './workfile.ts';
import { SUBJECT } from './assignments-test-kit.ts';

const { openCore } = testCores('plat-forged-');

const FORGED = 'MALLORY FORGED-OWNER';
const FILE_NAME = 'forged.plat-workfile.json';
const SUMMARY_PRICE = 100_000;
const SUBJECT_REPORT_PRICE = 250_000;

const summaryRequest = { request: { path: { q_id: SUBJECT } }, confirmed: true };
const reportRequest = { request: { body: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: SUBJECT } }, confirmed: true };
const details = { subjectRef: SUBJECT, subjectLabel: '1708 21ST ST NW', effectiveDate: '2017-01-01' };

const owner = (document: ReportDocument) => document.sections.flatMap((section) => section.values).find((value) => value.field === 'ownership.owner_name');

let here: OpenedCore;
let realOwner: string;
let forged: string;

beforeAll(async () => {
  // Exported on another machine after buying the subject's summary and report.
  const there = await openCore();
  const made = await call(there.core, 'createAssignment', { name: '1708 21st St NW appraisal', capMicroUsd: null, details, activate: true });
  await call(there.core, 'getEntitySummary', summaryRequest);
  await call(there.core, 'queryRecords', reportRequest);
  realOwner = String(owner((await call(there.core, 'getSubjectReport', { assignmentId: made.id })) as ReportDocument)?.raw);
  expect(realOwner).not.toMatch(/MALLORY/);
  const exported = (await call(there.core, 'exportAssignment', { id: made.id })).json;
  // The attack: the owner changed everywhere the file says it, and the checksum recomputed.
  const { sha256: _old, ...content } = JSON.parse(exported.split(JSON.stringify(realOwner).slice(1, -1)).join(FORGED)) as WorkfileContent & { sha256: string };
  expect(JSON.stringify(content)).toContain(FORGED);
  forged = JSON.stringify({ ...content, sha256: workfileChecksum(content) });
  here = await openCore();
});

describe('a forged, resealed workfile', () => {
  let importedId: string;

  it('is imported without touching the response cache', async () => {
    const before = await call(here.core, 'getCacheStatus', {});
    const imported = await call(here.core, 'importAssignment', { json: forged, fileName: FILE_NAME });
    importedId = imported.id;
    expect((await call(here.core, 'getCacheStatus', {})).entries).toBe(before.entries);
  });

  it('answers no question asked from another assignment: not "already bought", not the forged owner, not in its report', async () => {
    const other = await call(here.core, 'createAssignment', { name: 'Another appraisal', capMicroUsd: null, details, activate: true });
    const preview = await call(here.core, 'previewCost', { operation: 'v4.summary', request: summaryRequest.request });
    expect(preview).toMatchObject({ basis: expect.not.stringMatching(/cached/), expectedCostMicroUsd: SUMMARY_PRICE });
    const summary = await call(here.core, 'getEntitySummary', summaryRequest);
    const report = await call(here.core, 'queryRecords', reportRequest);
    expect([summary.billing, report.billing]).toEqual([
      expect.objectContaining({ cacheHit: false, chargedMicroUsd: SUMMARY_PRICE }),
      expect.objectContaining({ cacheHit: false, chargedMicroUsd: SUBJECT_REPORT_PRICE }),
    ]);
    expect(JSON.stringify([summary.envelope, report.envelope])).not.toContain(FORGED);
    const document = (await call(here.core, 'getSubjectReport', { assignmentId: other.id })) as ReportDocument;
    expect(owner(document)?.display).toBe(realOwner);
    expect(JSON.stringify(document)).not.toContain(FORGED);
    expect(document.received).toBeNull();
  });

  it('is labelled, inside its assignment, as received in the workfile: the page, the report and its citations (Verify: reports/report-pdf-service.test.ts)', async () => {
    const page = await call(here.core, 'getAssignment', { id: importedId });
    const receivedIn = /^Received in workfile “forged\.plat-workfile\.json”, exported by Plat test on \d{4}-\d{2}-\d{2} for “1708 21st St NW appraisal”$/;
    expect(page.answers).toHaveLength(2);
    for (const answer of page.answers) expect(answer.receivedIn).toMatch(receivedIn);
    // The offer to re-check them, with its price: both requests bought again, the cache skipped.
    expect(page.imported).toEqual({ receivedIn: expect.stringMatching(receivedIn), answers: 2, recheck: { calls: 2, expectedCostMicroUsd: SUMMARY_PRICE + SUBJECT_REPORT_PRICE } });

    const document = (await call(here.core, 'getSubjectReport', { assignmentId: importedId })) as ReportDocument;
    expect(owner(document)?.display).toBe(FORGED);
    expect(document.received).toEqual({ text: expect.stringMatching(receivedIn), answers: ['Summary of 1708 21ST ST NW', 'Subject report for 1708 21ST ST NW'] });
    expect(document.missing).toEqual([]);
    // citations.json is these rows: every citation of the forged value says where it came from.
    const row = citationRows(document).find((r) => r.field === 'ownership.owner_name' && r.role === 'value');
    expect(row?.printed).toBe(FORGED);
    expect(row?.citations.length).toBeGreaterThan(0);
    for (const citation of row?.citations ?? []) expect(citation.note).toMatch(/Received in workfile “forged\.plat-workfile\.json”.*not bought by this Plat/);
  });

  it('names the file\'s answers in every citation note when the report also reads answers bought here', async () => {
    const content = JSON.parse(forged) as WorkfileContent & { sha256?: string };
    delete content.sha256;
    const withoutSummary = { ...content, answers: content.answers.filter((answer) => answer.operation !== 'v4.summary'), queryLog: content.queryLog.filter((entry) => entry.operation !== 'v4.summary') };
    const imported = await call(here.core, 'importAssignment', { json: JSON.stringify({ ...withoutSummary, sha256: workfileChecksum(withoutSummary) }), fileName: FILE_NAME });
    await call(here.core, 'setActiveProject', { id: imported.id });
    // The summary the file lacks is what the report asks for (free here: the other assignment bought it on this machine).
    expect(((await call(here.core, 'getSubjectReport', { assignmentId: imported.id })) as ReportDocument).missing).toEqual([
      expect.objectContaining({ ipcOperation: 'getEntitySummary', expectedCostMicroUsd: 0 }),
    ]);
    await call(here.core, 'getEntitySummary', summaryRequest);
    const document = (await call(here.core, 'getSubjectReport', { assignmentId: imported.id })) as ReportDocument;
    expect(document.received?.answers).toEqual(['Subject report for 1708 21ST ST NW']);
    for (const citation of document.citations) expect(citation.note).toMatch(/Values read from Subject report for 1708 21ST ST NW: received in workfile “forged\.plat-workfile\.json”/);
  });

  it('keeps the file\'s answers, saying why, when a cap refuses the re-check; an assignment made here has nothing to re-check', async () => {
    const spent = (await call(here.core, 'getSpend', {})).sessionMicroUsd;
    await call(here.core, 'setBudgets', { sessionCapMicroUsd: spent, confirmationThresholdMicroUsd: null });
    const refused = await call(here.core, 'recheckImportedAnswers', { assignmentId: importedId, confirmed: true });
    await call(here.core, 'setBudgets', { sessionCapMicroUsd: null, confirmationThresholdMicroUsd: null });
    expect(refused).toMatchObject({ replaced: [], chargedMicroUsd: 0, remaining: 2 });
    expect(refused.failed).toEqual([
      { label: 'Summary of 1708 21ST ST NW', message: expect.stringMatching(/cap/) },
      { label: 'Subject report for 1708 21ST ST NW', message: expect.stringMatching(/cap/) },
    ]);
    expect((await call(here.core, 'getAssignment', { id: importedId })).imported?.answers).toBe(2);

    const mine = await call(here.core, 'createAssignment', { name: 'Made here', capMicroUsd: null, details });
    const activeBefore = (await call(here.core, 'listProjects', {})).activeProjectId;
    expect(await call(here.core, 'recheckImportedAnswers', { assignmentId: mine.id, confirmed: true })).toEqual({ replaced: [], failed: [], chargedMicroUsd: 0, remaining: 0 });
    expect((await call(here.core, 'listProjects', {})).activeProjectId).toBe(activeBefore);
    expect((await call(here.core, 'getAssignment', { id: mine.id })).imported).toBeNull();
  });

  it('re-checks against the service only when asked, at its price, and lists what changed', async () => {
    const spentBefore = (await call(here.core, 'getSpend', {})).allTimeMicroUsd;
    const result = await call(here.core, 'recheckImportedAnswers', { assignmentId: importedId, confirmed: true });
    expect(result.failed).toEqual([]);
    expect(result.chargedMicroUsd).toBe(SUMMARY_PRICE + SUBJECT_REPORT_PRICE);
    expect(result.remaining).toBe(0);
    expect(result.replaced.map((r) => r.label)).toEqual(['Summary of 1708 21ST ST NW', 'Subject report for 1708 21ST ST NW']);
    for (const replaced of result.replaced) expect(replaced.changes).toContainEqual(expect.objectContaining({ before: FORGED, after: realOwner }));
    expect((await call(here.core, 'getSpend', {})).allTimeMicroUsd).toBe(spentBefore + SUMMARY_PRICE + SUBJECT_REPORT_PRICE);

    const page = await call(here.core, 'getAssignment', { id: importedId });
    expect(page.answers.map((answer) => answer.receivedIn)).toEqual([null, null]);
    expect(page.imported).toMatchObject({ answers: 0, recheck: { calls: 0, expectedCostMicroUsd: 0 } });
    const document = (await call(here.core, 'getSubjectReport', { assignmentId: importedId })) as ReportDocument;
    expect(owner(document)?.display).toBe(realOwner);
    expect(document.received).toBeNull();
  });
});
