// The graph's link decisions through the whole core (IPC door, assignment service, store): kept with
// the assignment, refused with a reason a person can act on, free (no ledger row), read with the
// service stopped, and carried by the workfile file to another data folder.
import { describe, expect, it } from 'vitest';
import type { AppCore } from '../app-core.ts';
import { call, refusal, testCores } from '../core-test-kit.ts';
import { readWorkfile, workfileChecksum, writeWorkfile, type WorkfileContent } from '../assignments/workfile.ts';

const SUBJECT = 'prop_080b9725-3c84-5ba1-ab8d-a3891860e65b';
/** 1708 21ST ST NW's owner link, by the ownership record that names JOEL KUIPERS. */
const OWNER_LINK = 'owned_by:rec_23cf6780-2221-547e-b0e2-eaf741fda9ee→owner:JOEL KUIPERS';
const TAX_LINK = 'taxed_in:prop_080b9725-3c84-5ba1-ab8d-a3891860e65b→acct_38bde8b8-1657-54ad-9c8c-7dba67031240';
const { openCore } = testCores('plat-graph-');

const ledgerCount = async (core: AppCore) => (await call(core, 'listLedger', { filter: {}, limit: 1, offset: 0 })).total;

async function startAssignment(core: AppCore, name: string) {
  return call(core, 'createAssignment', { name, capMicroUsd: null, details: { subjectRef: SUBJECT, subjectLabel: '1708 21ST ST NW', effectiveDate: '2017-01-01' }, activate: true });
}

describe('graph decisions in the core', () => {
  it('keeps a cut and a confirmation with their notes, replaces and withdraws them, free and with the service stopped', async () => {
    const here = await openCore();
    const assignment = await startAssignment(here.core, 'Title 1708 21st St NW');
    expect(await call(here.core, 'getGraphDecisions', { assignmentId: assignment.id })).toEqual({ decisions: [] });
    const ledgerBefore = await ledgerCount(here.core);
    await here.stopService();

    const cut = await call(here.core, 'setGraphDecision', { assignmentId: assignment.id, edgeKey: OWNER_LINK, decision: { decision: 'cut', note: '  Deed names another Joel Kuipers. ' } });
    expect(cut.decisions).toEqual([{ edgeKey: OWNER_LINK, decision: 'cut', note: 'Deed names another Joel Kuipers.', at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) }]);
    await call(here.core, 'setGraphDecision', { assignmentId: assignment.id, edgeKey: TAX_LINK, decision: { decision: 'confirmed', note: 'Tax bill checked.' } });
    const changed = await call(here.core, 'setGraphDecision', { assignmentId: assignment.id, edgeKey: OWNER_LINK, decision: { decision: 'confirmed', note: 'Recorded deed 2013 names him.' } });
    expect(changed.decisions.map((d) => [d.edgeKey, d.decision, d.note]).sort()).toEqual([
      [OWNER_LINK, 'confirmed', 'Recorded deed 2013 names him.'],
      [TAX_LINK, 'confirmed', 'Tax bill checked.'],
    ]);
    expect((await call(here.core, 'getGraphDecisions', { assignmentId: assignment.id })).decisions).toEqual(changed.decisions);

    const withdrawn = await call(here.core, 'setGraphDecision', { assignmentId: assignment.id, edgeKey: TAX_LINK, decision: null });
    expect(withdrawn.decisions.map((d) => d.edgeKey)).toEqual([OWNER_LINK]);
    // Local reads and writes: nothing booked.
    expect(await ledgerCount(here.core)).toBe(ledgerBefore);
  });

  it('refuses what a person must correct: no note, an unknown decision, no such assignment, a plain project', async () => {
    const here = await openCore();
    const assignment = await startAssignment(here.core, 'Refusals');
    const blank = await refusal(here.core, 'setGraphDecision', { assignmentId: assignment.id, edgeKey: OWNER_LINK, decision: { decision: 'cut', note: '   ' } });
    expect(blank).toMatchObject({ code: 'invalid_payload', message: expect.stringMatching(/decision\.note.*say why you confirm or cut this link/) });
    const maybe = await refusal(here.core, 'setGraphDecision', { assignmentId: assignment.id, edgeKey: OWNER_LINK, decision: { decision: 'maybe', note: 'Unsure.' } });
    expect(maybe).toMatchObject({ code: 'invalid_payload', message: expect.stringMatching(/decision\.decision/) });
    const longKey = await refusal(here.core, 'setGraphDecision', { assignmentId: assignment.id, edgeKey: 'k'.repeat(501), decision: null });
    expect(longKey).toMatchObject({ code: 'invalid_payload', message: expect.stringMatching(/edgeKey/) });
    expect(await refusal(here.core, 'getGraphDecisions', { assignmentId: 'no-such' })).toMatchObject({ code: 'not_found' });
    const project = await call(here.core, 'createProject', { name: 'Plain project', capMicroUsd: null });
    const plain = await refusal(here.core, 'setGraphDecision', { assignmentId: project.id, edgeKey: OWNER_LINK, decision: { decision: 'cut', note: 'x' } });
    expect(plain).toMatchObject({ code: 'invalid_payload', message: expect.stringMatching(/is a project, not an assignment/) });
    expect((await call(here.core, 'getGraphDecisions', { assignmentId: assignment.id })).decisions).toEqual([]);
  });

  it('carries the decisions in the workfile file to another data folder; a file without them still opens', async () => {
    const here = await openCore();
    const assignment = await startAssignment(here.core, 'Exported title work');
    const before = await call(here.core, 'exportAssignment', { id: assignment.id });
    // No decisions: the file is as it was before decisions were kept.
    expect(Object.keys(JSON.parse(before.json) as object)).not.toContain('graphDecisions');

    const { decisions } = await call(here.core, 'setGraphDecision', { assignmentId: assignment.id, edgeKey: OWNER_LINK, decision: { decision: 'cut', note: 'Deed names another Joel Kuipers.' } });
    const file = await call(here.core, 'exportAssignment', { id: assignment.id });
    expect((JSON.parse(file.json) as WorkfileContent).graphDecisions).toEqual(decisions);

    const there = await openCore();
    const imported = await call(there.core, 'importAssignment', { json: file.json });
    expect((await call(there.core, 'getGraphDecisions', { assignmentId: imported.id })).decisions).toEqual(decisions);
    const withoutThem = await call(there.core, 'importAssignment', { json: before.json });
    expect((await call(there.core, 'getGraphDecisions', { assignmentId: withoutThem.id })).decisions).toEqual([]);
  });

  it('refuses a workfile whose decisions are damaged, saying so, and imports nothing', async () => {
    const here = await openCore();
    const assignment = await startAssignment(here.core, 'Damaged decisions');
    await call(here.core, 'setGraphDecision', { assignmentId: assignment.id, edgeKey: OWNER_LINK, decision: { decision: 'cut', note: 'Different person.' } });
    const content = readWorkfile((await call(here.core, 'exportAssignment', { id: assignment.id })).json);
    const damaged = { ...content, graphDecisions: [{ edgeKey: OWNER_LINK, decision: 'cut', note: '', at: '2017-01-03T10:00:00Z' }] } as WorkfileContent;
    const json = `${JSON.stringify({ ...damaged, sha256: workfileChecksum(damaged) })}\n`;
    const refused = await refusal(here.core, 'importAssignment', { json });
    expect(refused).toMatchObject({ code: 'invalid_payload', message: expect.stringMatching(/decisions on the graph's links .* not in the shape Plat writes at graphDecisions\.0\.note/) });
    const projects = (await call(here.core, 'listProjects', {})).projects.map((project) => project.name);
    expect(projects).toEqual(['Damaged decisions']);
    // The same file with sound decisions opens.
    expect((await call(here.core, 'importAssignment', { json: writeWorkfile(content) })).name).toBe('Damaged decisions (imported)');
  });
});
