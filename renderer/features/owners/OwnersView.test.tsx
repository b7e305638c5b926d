// The owner search form with the platform faked: what it sends for pricing, and what it refuses to.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { OwnersView } from './OwnersView.tsx';
import { useOwnersUi } from './owners-ui-store.ts';

import type { RecordedPlatCall } from '../../platform/fake-plat.ts';
import { renderWithQueries, settle, setUpViewTests } from '../../platform/view-test-kit.tsx';
import { independentCoverage } from '../../../shared/service/dialect-test-kit.ts';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
const EMBEDDED_COVERAGE = { facet: 'coverage', items: [{ area_uid: 'area_us_dc', name: 'Washington, DC', domain_key: 'ownership', status: 'partial', note: 'OLD CITY II.' }] };
/**
 * The coverage the service answers (the embedded service's unless a test says otherwise), its
 * jurisdictions facet, and whether the catalog is known free (the embedded service) or its price is not known.
 */
const coverage = vi.hoisted(() => ({ data: null as unknown, jurisdictions: null as unknown, known: true }));

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule, listedPrice, serviceAnswer, unknownPrice } = await import('../../platform/fake-plat.ts');
  return fakePlatModule(importOriginal, calls, {
    getCatalogFacet: (request) =>
      serviceAnswer((request as { request: { query: { facet: string } } }).request.query.facet === 'jurisdictions' ? coverage.jurisdictions : coverage.data, 0),
    previewCost: (request) => {
      if ((request as { operation: string }).operation !== 'v2.getCatalog') return listedPrice('v2.searchProperties', 20_000);
      return coverage.known ? listedPrice('v2.getCatalog', 0) : unknownPrice('v2.getCatalog');
    },
  });
});

setUpViewTests({ afterCleanup: () => useOwnersUi.setState({ draft: '', areaUid: null, submitted: null }) });
beforeEach(() => {
  calls.length = 0;
  coverage.data = EMBEDDED_COVERAGE;
  coverage.jurisdictions = { facet: 'jurisdictions', items: [] };
  coverage.known = true;
});

async function renderForm() {
  // The coverage is priced first (free here), then read; the jurisdictions facet, when the coverage
  // leaves area ids out, is priced and asked after the coverage lands.
  await renderWithQueries(<OwnersView />, 4);
  await settle();
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

  it('searches the jurisdiction a coverage without area ids lists for ownership, instead of refusing', async () => {
    coverage.data = independentCoverage();
    const input = await renderForm();
    expect(screen.queryByText(/No area publishes owner names/)).toBeNull();
    fireEvent.change(input, { target: { value: 'kuipers' } });
    await settle(1000);
    const priced = ownerSearchCalls().map((call) => (call.request as { request: { body: { area_uid: string } } }).request.body.area_uid);
    // The jurisdictions facet names no area for it: the search names the jurisdiction code.
    expect(priced.at(-1)).toBe('11001');
  });

  it('names the area the jurisdictions facet lists for a jurisdiction the coverage gives without an area id', async () => {
    coverage.data = independentCoverage();
    coverage.jurisdictions = { facet: 'jurisdictions', items: [{ jurisdiction: '11001', name: 'District of Columbia', area_uids: ['area_us_dc'] }] };
    const input = await renderForm();
    fireEvent.change(input, { target: { value: 'kuipers' } });
    await settle(1000);
    const priced = ownerSearchCalls().map((call) => (call.request as { request: { body: { area_uid: string } } }).request.body.area_uid);
    expect(priced.at(-1)).toBe('area_us_dc');
    const facets = calls.filter((call) => call.operation === 'getCatalogFacet').map((call) => (call.request as { request: { query: { facet: string } } }).request.query.facet);
    expect(new Set(facets)).toEqual(new Set(['coverage', 'jurisdictions']));
  });

  it('does not ask the jurisdictions facet when the coverage names its areas', async () => {
    await renderForm();
    const facets = calls.filter((call) => call.operation === 'getCatalogFacet').map((call) => (call.request as { request: { query: { facet: string } } }).request.query.facet);
    expect(facets).toEqual(['coverage']);
  });
});
