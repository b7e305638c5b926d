// The owner search form with the platform faked: what it sends for pricing, and what it refuses to.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { OwnersView } from './OwnersView.tsx';
import { useOwnersUi } from './owners-ui-store.ts';

import type { RecordedPlatCall } from '../../platform/fake-plat.ts';
import { renderWithQueries, settle, setUpViewTests } from '../../platform/view-test-kit.tsx';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
/** Whether the coverage facet is known free (the embedded service) or its price is not known (another service). */
const coverage = vi.hoisted(() => ({ known: true }));

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule, listedPrice, serviceAnswer, unknownPrice } = await import('../../platform/fake-plat.ts');
  return fakePlatModule(importOriginal, calls, {
    getCatalogFacet: () =>
      serviceAnswer(
        { facet: 'coverage', items: [{ area_uid: 'area_us_dc', name: 'Washington, DC', domain_key: 'ownership', status: 'partial', note: 'OLD CITY II.' }] },
        0,
      ),
    previewCost: (request) => {
      if ((request as { operation: string }).operation !== 'v2.getCatalog') return listedPrice('v2.searchProperties', 20_000);
      return coverage.known ? listedPrice('v2.getCatalog', 0) : unknownPrice('v2.getCatalog');
    },
  });
});

setUpViewTests({ afterCleanup: () => useOwnersUi.setState({ draft: '', areaUid: null, submitted: null }) });
beforeEach(() => {
  calls.length = 0;
  coverage.known = true;
});

async function renderForm() {
  // The coverage is priced first (free here), then read.
  await renderWithQueries(<OwnersView />, 2);
  return screen.getByRole('searchbox', { name: 'Owner name contains' });
}

/** Owner-search requests sent to be priced or bought. */
const ownerSearchCalls = () =>
  calls.filter(
    (call) =>
      call.operation === 'searchProperties' ||
      (call.operation === 'previewCost' && (call.request as { operation?: string }).operation === 'v2.searchProperties'),
  );

describe('OwnersView', () => {
  it('reads the coverage by itself only where it is known to be free; elsewhere it waits for a priced button', async () => {
    coverage.known = false;
    await renderWithQueries(<OwnersView />, 0);
    await settle(100);
    const button = screen.getByRole('button', { name: 'Read the coverage' });
    expect(button.parentElement?.textContent).toContain('Price not known');
    expect(calls.filter((call) => call.operation === 'getCatalogFacet')).toEqual([]);
    expect(screen.queryByText(/No area publishes owner names/)).toBeNull();

    fireEvent.click(button);
    await settle(100);
    fireEvent.click(screen.getByRole('button', { name: 'Buy at a price not known' }));
    await settle(100);
    expect(calls.filter((call) => call.operation === 'getCatalogFacet').map((call) => (call.request as { confirmed?: boolean }).confirmed)).toEqual([true]);
    expect(screen.getByRole('searchbox', { name: 'Owner name contains' })).toBeTruthy();
  });

  it('refuses a name in letters the rolls never print, before pricing, and charges nothing', async () => {
    const input = await renderForm();
    for (const name of ['名前', 'MÜLLER 名前']) {
      fireEvent.change(input, { target: { value: name } });
      await settle(1000);
      fireEvent.submit(input.closest('form')!);
      await settle(1000);
      expect(screen.getByRole('alert').textContent).toContain(
        'The public rolls in Plat’s sample print owner names in Latin letters; type the name as the roll prints it',
      );
      expect(screen.getByRole('button', { name: 'Search owners' }).hasAttribute('disabled')).toBe(true);
    }
    expect(ownerSearchCalls()).toEqual([]);
  });

  it('says exactly what an accented name matches, and sends it as typed', async () => {
    const input = await renderForm();
    fireEvent.change(input, { target: { value: 'MÜLLER' } });
    expect(screen.getByTestId('owner-query').textContent).toBe('Owner name contains “MÜLLER” (accents ignored: also MULLER, MUELLER)');
    await settle(1000);
    const priced = ownerSearchCalls().map((call) => (call.request as { request: { body: { filters: unknown } } }).request.body.filters);
    expect(priced.at(-1)).toEqual([{ field: 'owner_name', op: 'contains', value: 'MÜLLER' }]);
    expect(screen.queryByRole('alert')).toBeNull();

    fireEvent.change(input, { target: { value: 'smith' } });
    expect(screen.getByTestId('owner-query').textContent).toBe('Owner name contains “smith”');
  });
});
