import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as PlatModule from '../../platform/plat.ts';
import type { RecordedPlatCall } from '../../platform/fake-plat.ts';
import { renderWithQueries, settle, setUpViewTests } from '../../platform/view-test-kit.tsx';
import { useUiStore } from '../../app/ui-store.ts';
import { AssignmentsView } from './AssignmentsView.tsx';
import { useImportNotice } from './import-notice.ts';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
const state = vi.hoisted(() => ({ signature: null as unknown }));

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule } = await import('../../platform/fake-plat.ts');
  const assignment = { subjectRef: 'prop_1', subjectLabel: '1708 21ST ST NW', effectiveDate: '2026-05-01', intendedUse: '', client: '', reference: '', notes: '' };
  const project = { id: 'p2', name: 'Dupont row house (imported)', capMicroUsd: null, archived: false, createdAt: '2026-05-01T00:00:00Z', assignment };
  return fakePlatModule(importOriginal as () => Promise<typeof PlatModule>, calls, {
    listProjects: () => ({ projects: [project], activeProjectId: null }),
    importAssignment: () => ({ ...project, workfileSignature: state.signature }),
    getAssignment: () => ({ project, answers: [], spentMicroUsd: 0, choices: [] }),
  });
});

setUpViewTests();
beforeEach(() => {
  calls.length = 0;
  useUiStore.setState({ openAssignmentId: null });
  useImportNotice.setState({ notice: null });
});

async function importFile() {
  await renderWithQueries(<AssignmentsView />, 3);
  const input = screen.getByLabelText('Workfile to import');
  fireEvent.change(input, { target: { files: [new File(['{"format":"plat-assignment-workfile"}'], 'dupont.plat-workfile.json', { type: 'application/json' })] } });
  for (let step = 0; step < 6; step++) await settle(50);
}

describe('importing a workfile', () => {
  it('opens the new assignment and says whose signature the file carried', async () => {
    state.signature = { status: 'other-installation', fingerprint: 'AB:CD', message: 'Signed by another Plat installation (certificate SHA-256 AB:CD): its answers are that installation’s word.' };
    await importFile();
    expect(calls.some((call) => call.operation === 'importAssignment')).toBe(true);
    const notice = screen.getByTestId('import-signature');
    expect(notice.dataset.signature).toBe('other-installation');
    expect(notice.textContent).toContain('Imported from a workfile. Signed by another Plat installation (certificate SHA-256 AB:CD)');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('import-signature')).toBeNull();
  });

  it('labels an unsigned workfile as unsigned', async () => {
    state.signature = { status: 'unsigned', fingerprint: null, message: 'This workfile is not signed: nothing shows which Plat exported it.' };
    await importFile();
    expect(screen.getByTestId('import-signature').textContent).toContain('This workfile is not signed');
  });
});
