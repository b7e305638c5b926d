// The priced button with the platform faked: a refusal by a cap says why and offers to raise it, and
// a price not known says so beside the button.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { useUiStore } from '../app/ui-store.ts';
import { ChargeButton } from './ChargeButton.tsx';
import type { RecordedPlatCall } from '../platform/fake-plat.ts';
import { renderWithQueries, setUpViewTests } from '../platform/view-test-kit.tsx';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
const price = vi.hoisted(() => ({ preview: null as unknown }));

vi.mock('../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule } = await import('../platform/fake-plat.ts');
  return fakePlatModule(importOriginal, calls, { previewCost: () => price.preview });
});

setUpViewTests({ afterCleanup: () => useUiStore.setState({ activeView: 'search', settingsSection: null }) });
beforeEach(() => {
  calls.length = 0;
});

const request = { path: { entity_ref: 'prop_1' } };

describe('ChargeButton', () => {
  it('refuses a call that might pass a cap, saying why, with the way to raise the cap', async () => {
    const { unknownPrice } = await import('../platform/fake-plat.ts');
    const message = 'The price of this relationship lookup is not known, and this session has $0.02 left of its $0.02 cap: less than $1.00, the most Plat allows for a call whose price is not known. Raise the cap in Settings to continue.';
    price.preview = { ...unknownPrice('v2.traverseRelationships'), needsConfirmation: false, blockedBy: { cap: 'session', capMicroUsd: 20_000, spentMicroUsd: 0, message } };
    const onRun = vi.fn();
    await renderWithQueries(<ChargeButton operation="traverseRelationships" request={request} label="List its links" what="the links" onRun={onRun} />, 2);
    expect(screen.getByRole('button', { name: 'List its links' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('note').textContent).toContain(message);
    fireEvent.click(screen.getByRole('button', { name: 'Raise the session cap' }));
    expect(useUiStore.getState()).toMatchObject({ activeView: 'settings', settingsSection: 'settings-budgets' });
    expect(onRun).not.toHaveBeenCalled();
  });

  it('shows "Price not known" and asks first, naming the largest charge seen', async () => {
    const { unknownPrice } = await import('../platform/fake-plat.ts');
    price.preview = unknownPrice('v2.traverseRelationships', 5_000);
    const onRun = vi.fn();
    await renderWithQueries(<ChargeButton operation="traverseRelationships" request={request} label="List its links" what="the links" onRun={onRun} />, 2);
    expect(screen.getByTestId('cost-tag').textContent).toBe('Price not known');
    fireEvent.click(screen.getByRole('button', { name: 'List its links' }));
    expect(screen.getByRole('dialog').textContent).toContain('price not known; the largest charge seen for this operation was $0.005');
    expect(onRun).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Buy at a price not known' }));
    expect(onRun).toHaveBeenCalledWith({ confirmed: true });
  });
});
