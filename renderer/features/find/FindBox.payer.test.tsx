// Which file pays for a find: with an assignment on 1708 21st St NW active, a priced lookup of 1717
// 4th St NW asks first (that assignment, none, or a new one), sends the chosen file with the call, and
// remembers the choice for the session when asked to; Settings asks again.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { useUiStore } from '../../app/ui-store.ts';
import { FindBox } from './FindBox.tsx';
import { useFindStore } from './find-store.ts';
import { usePayerStore } from '../../platform/payer-store.ts';
import type { RecordedPlatCall } from '../../platform/fake-plat.ts';
import { renderWithQueries, settle as runTimers, setUpViewTests } from '../../platform/view-test-kit.tsx';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
const SUBJECT_1717 = 'prop_1717';

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule, listedPrice, serviceAnswer } = await import('../../platform/fake-plat.ts');
  const assignment = {
    subjectRef: 'prop_080b9725-3c84-5ba1-ab8d-a3891860e65b',
    subjectLabel: '1708 21ST ST NW · SSL 0065 0007',
    effectiveDate: '2017-01-01',
    intendedUse: '',
    client: '',
    reference: '',
    notes: '',
  };
  return fakePlatModule(importOriginal, calls, {
    listProjects: () => ({
      projects: [{ id: 'p1708', name: '1708 21st St NW', capMicroUsd: null, archived: false, createdAt: '2026-01-01T00:00:00.000Z', assignment }],
      activeProjectId: 'p1708',
    }),
    getCatalogFacet: () => serviceAnswer({ facet: 'coverage', items: [] }, 0),
    previewCost: (request) => listedPrice((request as { operation: string }).operation, 10_000),
    createProject: (request) => ({ id: 'pnew', name: (request as { name: string }).name, capMicroUsd: null, archived: false, createdAt: '2026-01-01T00:00:00.000Z', assignment: null }),
    setActiveProject: (request) => ({ activeProjectId: (request as { id: string }).id }),
    updateAssignment: (request) => ({ id: (request as { id: string }).id }),
    getSpend: () => ({}),
    resolveEntities: () =>
      serviceAnswer(
        {
          items: [
            {
              client_id: 'find',
              outcome: 'ok',
              total_candidates: 1,
              candidates: [{ entity_kind: 'property', entity_ref: SUBJECT_1717, property_ref: SUBJECT_1717, match_basis: 'address_exact', canonical_identity: { address: '1717 4TH ST NW' } }],
            },
          ],
        },
        10_000,
      ),
    getEntity: () => serviceAnswer({ entity: { entity_ref: SUBJECT_1717, entity_kind: 'property', attributes: {} } }, 0),
  });
});

setUpViewTests({
  afterCleanup: () => {
    useFindStore.setState({ text: '', chosen: null, asked: null, paletteOpen: false, focusTick: 0, newFile: null });
    useUiStore.setState({ entityTrail: [] });
    usePayerStore.setState({ remembered: null });
  },
});
beforeEach(() => {
  calls.length = 0;
});

async function settle(ms = 0) {
  await runTimers(ms);
  await runTimers(0);
}

async function find(text: string) {
  await renderWithQueries(<FindBox />, 0);
  await settle();
  const input = screen.getByRole('textbox', { name: 'Find' });
  fireEvent.change(input, { target: { value: text } });
  await settle(1000);
  fireEvent.keyDown(input, { key: 'Enter' });
  await settle(100);
  return input;
}

const resolutions = () => calls.filter((call) => call.operation === 'resolveEntities').map((call) => call.request as { projectId?: string | null });

async function choose(label: RegExp, remember = false) {
  const dialog = screen.getByTestId('payer-dialog');
  fireEvent.click(within(dialog).getByRole('radio', { name: label }));
  if (remember) fireEvent.click(within(dialog).getByRole('checkbox', { name: /Don’t ask again this session/ }));
  fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
  await settle(100);
}

describe('which file pays for a find', () => {
  it('asks before charging a lookup of another property, and charges nothing until asked', async () => {
    await find('1717 4th st nw');
    const dialog = screen.getByTestId('payer-dialog');
    expect(dialog.textContent).toContain('“1717 4TH ST NW” is not the subject of the active assignment “1708 21st St NW”');
    expect(resolutions()).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await settle();
    expect(resolutions()).toEqual([]);
  });

  it('charges the active assignment when chosen, and no file when “No assignment” is chosen', async () => {
    await find('1717 4th st nw');
    await choose(/No assignment/);
    expect(resolutions()).toEqual([expect.objectContaining({ projectId: null })]);
    expect(usePayerStore.getState().remembered).toBeNull();
  });

  it('starts a new file for “A new assignment”, charges the lookup to it, and gives it the property opened as its subject', async () => {
    const input = await find('1717 4th st nw');
    await choose(/A new assignment/);
    expect(calls.find((call) => call.operation === 'createProject')?.request).toEqual({ name: '1717 4TH ST NW', capMicroUsd: null });
    expect(calls.find((call) => call.operation === 'setActiveProject')?.request).toEqual({ id: 'pnew' });
    expect(resolutions()).toEqual([expect.objectContaining({ projectId: 'pnew' })]);
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle();
    expect(calls.find((call) => call.operation === 'updateAssignment')?.request).toEqual({
      id: 'pnew',
      details: { subjectRef: SUBJECT_1717, subjectLabel: '1717 4TH ST NW' },
    });
  });

  it('remembers the choice for the session when asked not to ask again', async () => {
    await find('1717 4th st nw');
    await choose(/This assignment/, true);
    expect(resolutions()).toEqual([expect.objectContaining({ projectId: 'p1708' })]);
    expect(usePayerStore.getState().remembered).toBe('assignment');
    const input = screen.getByRole('textbox', { name: 'Find' });
    fireEvent.change(input, { target: { value: '1719 4th st nw' } });
    await settle(1000);
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle(100);
    expect(screen.queryByTestId('payer-dialog')).toBeNull();
    expect(resolutions()).toHaveLength(2);
    expect(resolutions()[1]).toEqual(expect.objectContaining({ projectId: 'p1708' }));
  });

  it('does not ask for a lookup of the assignment’s own subject', async () => {
    await find('1708 21st Street NW');
    expect(screen.queryByTestId('payer-dialog')).toBeNull();
    expect(resolutions()).toEqual([expect.objectContaining({ projectId: 'p1708' })]);
  });
});
