// An imported assignment's page: the file's answers say where they came from, the re-check is offered
// with its price and asked only after the person confirms it, and its answer lists what changed.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import type { RecordedPlatCall } from '../../platform/fake-plat.ts';
import { renderWithQueries, settle, setUpViewTests } from '../../platform/view-test-kit.tsx';
import { ImportedAnswers } from './ImportedAnswers.tsx';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule } = await import('../../platform/fake-plat.ts');
  return fakePlatModule(importOriginal, calls, {
    recheckImportedAnswers: () => ({
      replaced: [
        { label: 'Summary of 1708 21ST ST NW', changes: [{ path: 'owner_name.value', before: 'MALLORY FORGED-OWNER', after: 'KUIPERS JOEL' }], more: 0 },
        { label: 'Subject report for 1708 21ST ST NW', changes: [], more: 0 },
      ],
      failed: [],
      chargedMicroUsd: 350_000,
      remaining: 0,
    }),
  });
});

setUpViewTests();
beforeEach(() => {
  calls.length = 0;
});

const receivedIn = 'Received in workfile “forged.plat-workfile.json”, exported by Plat 0.1.0 on 2026-11-27 for “1708 21st St NW appraisal”';

describe('ImportedAnswers', () => {
  it('says where the answers came from and offers the re-check with its price, buying nothing until confirmed', async () => {
    await renderWithQueries(<ImportedAnswers assignmentId="p1" imported={{ receivedIn, answers: 2, recheck: { calls: 2, expectedCostMicroUsd: 350_000 } }} />, 1);
    expect(screen.getByTestId('received-notice').textContent).toContain(`${receivedIn}.`);
    expect(screen.getByTestId('received-notice').textContent).toContain('Not bought by this Plat');
    const offer = screen.getByTestId('recheck-imported');
    expect(offer.textContent).toBe('Re-check against the service (2 calls, $0.35)');
    fireEvent.click(offer);
    await settle();
    expect(calls.some((call) => call.operation === 'recheckImportedAnswers')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Buy for $0.35' }));
    await settle(50);
    expect(calls.find((call) => call.operation === 'recheckImportedAnswers')?.request).toEqual({ assignmentId: 'p1', confirmed: true });
    const outcome = screen.getByTestId('recheck-outcome').textContent;
    expect(outcome).toContain('Re-checked 2 answers for $0.35.');
    expect(outcome).toContain('owner_name.value: MALLORY FORGED-OWNER → KUIPERS JOEL');
    expect(outcome).toContain('The service’s answer says the same as the file.');
  });

  it('says a price is not known rather than guess one', async () => {
    await renderWithQueries(<ImportedAnswers assignmentId="p1" imported={{ receivedIn, answers: 2, recheck: { calls: 2, expectedCostMicroUsd: null } }} />, 1);
    expect(screen.getByTestId('recheck-imported').textContent).toBe('Re-check against the service (2 calls, price not known)');
    fireEvent.click(screen.getByTestId('recheck-imported'));
    await settle();
    expect(screen.getByRole('button', { name: 'Buy, price not known' })).toBeTruthy();
  });

  it('offers nothing to buy once every answer was re-checked', async () => {
    await renderWithQueries(<ImportedAnswers assignmentId="p1" imported={{ receivedIn, answers: 0, recheck: { calls: 0, expectedCostMicroUsd: 0 } }} />, 1);
    expect(screen.queryByTestId('recheck-imported')).toBeNull();
    expect(screen.getByText(/has since been re-checked against the service/)).toBeTruthy();
  });
});
