// The budgets form with the platform faked: the bound for a call whose price is not known is shown,
// checked as typed (a positive amount), and saved with the caps.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { BudgetSettings } from './BudgetSettings.tsx';
import type { RecordedPlatCall } from '../../platform/fake-plat.ts';
import { renderWithQueries, settle, setUpViewTests } from '../../platform/view-test-kit.tsx';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
const stored = vi.hoisted(() => ({ sessionCapMicroUsd: null as number | null, confirmationThresholdMicroUsd: 100_000 as number | null, unknownPriceBoundMicroUsd: 1_000_000 }));

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule } = await import('../../platform/fake-plat.ts');
  return fakePlatModule(importOriginal, calls, {
    getBudgets: () => ({ ...stored }),
    setBudgets: (request) => Object.assign(stored, request),
    getSpend: () => ({
      sessionMicroUsd: 0,
      todayMicroUsd: 0,
      allTimeMicroUsd: 0,
      byProject: [],
      lastKnownBalanceMicroUsd: null,
      lastChargeMicroUsd: null,
      lastChargeAt: null,
      unsavedMicroUsd: 0,
      storageProblem: null,
    }),
  });
});

setUpViewTests();
beforeEach(() => {
  calls.length = 0;
  Object.assign(stored, { sessionCapMicroUsd: null, confirmationThresholdMicroUsd: 100_000, unknownPriceBoundMicroUsd: 1_000_000 });
});

const LABEL = 'Largest charge to allow for a call whose price is not known';
const saved = () => calls.filter((call) => call.operation === 'setBudgets').map((call) => call.request);

describe('BudgetSettings', () => {
  it('shows the bound for a call whose price is not known, $1.00 by default, and saves a new one with the caps', async () => {
    await renderWithQueries(<BudgetSettings />, 2);
    const bound = screen.getByLabelText(LABEL) as HTMLInputElement;
    expect(bound.value).toBe('1.00');
    fireEvent.change(bound, { target: { value: '0.25' } });
    fireEvent.change(screen.getByLabelText('Session cap'), { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save budgets' }));
    await settle(50);
    expect(saved()).toEqual([{ sessionCapMicroUsd: 5_000_000, confirmationThresholdMicroUsd: 100_000, unknownPriceBoundMicroUsd: 250_000 }]);
    expect((screen.getByLabelText(LABEL) as HTMLInputElement).value).toBe('0.25');
  });

  it('refuses a bound that is empty, zero or not an amount, saying why, and saves nothing', async () => {
    await renderWithQueries(<BudgetSettings />, 2);
    for (const [text, why] of [
      ['', 'enter a dollar amount'],
      ['0', 'must be more than $0'],
      ['lots', 'enter a dollar amount'],
      ['5000', 'must be at most $1,000.00'],
    ] as const) {
      fireEvent.change(screen.getByLabelText(LABEL), { target: { value: text } });
      fireEvent.click(screen.getByRole('button', { name: 'Save budgets' }));
      await settle(50);
      expect(screen.getByText(new RegExp(`${LABEL}: ${why.replace('$', '\\$')}`))).toBeTruthy();
    }
    expect(saved()).toEqual([]);
  });
});
