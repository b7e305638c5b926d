// The find box with the platform faked: it says what it understood and the price before anything is
// bought, buys only on Enter (or the button), lists the candidates, and Enter opens the chosen one.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { useUiStore } from '../../app/ui-store.ts';
import { FindBox } from './FindBox.tsx';
import { useFindStore } from './find-store.ts';
import type { RecordedPlatCall } from '../../platform/fake-plat.ts';
import { renderWithQueries, settle as runTimers, setUpViewTests } from '../../platform/view-test-kit.tsx';
import { independentCoverage } from '../../../shared/service/dialect-test-kit.ts';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
const cached = vi.hoisted(() => ({ value: false }));
/** The coverage the service answers: the embedded service's unless a test says otherwise. */
const coverage = vi.hoisted(() => ({ data: null as unknown }));
const EMBEDDED_COVERAGE = { facet: 'coverage', items: [{ area_uid: 'area_us_dc', name: 'Washington, DC', domain_key: 'ownership', status: 'partial' }] };
/** What the next resolution charges when it matches nothing (the independent service charges per call). */
const noMatch = vi.hoisted(() => ({ chargedMicroUsd: 0 }));

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule, listedPrice, serviceAnswer } = await import('../../platform/fake-plat.ts');
  const property = 'prop_080b9725-3c84-5ba1-ab8d-a3891860e65b';
  return fakePlatModule(importOriginal, calls, {
    getCatalogFacet: () => serviceAnswer(coverage.data, 0),
    previewCost: (request) => {
      const operation = (request as { operation: string }).operation;
      if (operation === 'v2.getEntity' || operation === 'v2.getCatalog') return listedPrice(operation, 0);
      return cached.value ? { ...listedPrice(operation, 0), cached: true } : listedPrice(operation, 5_000);
    },
    resolveEntities: (request) =>
      JSON.stringify(request).includes('NOWHERE')
        ? serviceAnswer({ items: [{ client_id: 'find', outcome: 'no_match', total_candidates: 0, candidates: [] }] }, noMatch.chargedMicroUsd)
        : serviceAnswer(
        {
          items: [
            {
              client_id: 'find',
              outcome: 'ok',
              total_candidates: 2,
              candidates: [
                { entity_kind: 'property', entity_ref: property, property_ref: property, match_basis: 'address_exact', canonical_identity: { address: '1708 21ST ST NW', ssl: '0065    0007' } },
                { entity_kind: 'address', entity_ref: 'addr_1', property_ref: property, match_basis: 'address_exact', canonical_identity: { address: '1708 21ST ST NW' } },
              ],
            },
          ],
        },
        5_000,
      ),
    getEntity: () =>
      serviceAnswer(
        {
          entity: {
            entity_ref: property,
            entity_kind: 'property',
            attributes: {
              owner_name: {
                value: 'JOEL KUIPERS',
                citation: { source: 'DC Office of Tax and Revenue', dataset: 'Real Property Tax Database', as_of: '2017-02-05T00:00:00Z', synthetic: false },
              },
            },
          },
        },
        0,
      ),
  });
});

setUpViewTests({
  afterCleanup: () => {
    useFindStore.setState({ text: '', chosen: null, asked: null, paletteOpen: false, focusTick: 0 });
    useUiStore.setState({ entityTrail: [] });
  },
});
beforeEach(() => {
  calls.length = 0;
  cached.value = false;
  coverage.data = EMBEDDED_COVERAGE;
  noMatch.chargedMicroUsd = 0;
});

async function settle(ms = 0) {
  await runTimers(ms);
  // Answers resolve after the timers: let them land.
  await runTimers(0);
}

async function renderBox() {
  await renderWithQueries(<FindBox />, 0);
  await settle();
  return screen.getByRole('textbox', { name: 'Find' });
}

const bought = () => calls.filter((call) => call.operation === 'resolveEntities' || call.operation === 'searchProperties');
// The find's own price (not the free reads beside it: records and coverage).
const priced = () => calls.filter((call) => call.operation === 'previewCost' && !['v2.getEntity', 'v2.getCatalog'].includes((call.request as { operation: string }).operation));

describe('FindBox', () => {
  it('says what it understood and the price before buying; Enter finds, lists the candidates, and Enter opens the property', async () => {
    const input = await renderBox();
    fireEvent.change(input, { target: { value: '1708 21st st nw' } });
    await settle(1000);
    expect(screen.getByTestId('find-understood').textContent).toBe('Understood as address: 1708 21ST ST NW');
    expect(screen.getByTestId('cost-tag').textContent).toBe('$0.005');
    // Priced in its canonical form, and nothing bought yet.
    expect((priced().at(-1)?.request as { request: { body: { items: Array<{ identifiers: unknown }> } } }).request.body.items[0]?.identifiers).toEqual([
      { scheme: 'address', value: '1708 21ST ST NW' },
    ]);
    expect(bought()).toEqual([]);

    fireEvent.keyDown(input, { key: 'Enter' });
    await settle(100);
    expect(bought()).toHaveLength(1);
    const list = screen.getByRole('list', { name: 'Candidates for the address “1708 21ST ST NW”' });
    const options = list.querySelectorAll('li');
    // The property, its address and its SSL on one row, its owner read from the free record, cited.
    expect(options).toHaveLength(1);
    expect(options[0]?.textContent).toContain('property · address');
    expect(options[0]?.textContent).toContain('1708 21ST ST NW');
    expect(options[0]?.textContent).toContain('0065    0007');
    expect(options[0]?.textContent).toContain('JOEL KUIPERS');
    expect(options[0]?.getAttribute('data-active')).toBe('true');
    expect(screen.getByTestId('find-delivery').textContent).toContain('Bought for $0.005');

    fireEvent.keyDown(input, { key: 'Enter' });
    expect(useUiStore.getState().entityTrail).toEqual(['prop_080b9725-3c84-5ba1-ab8d-a3891860e65b']);
    expect(bought()).toHaveLength(1);
  });

  it('shows a cached find as free and finds it without asking again', async () => {
    cached.value = true;
    const input = await renderBox();
    fireEvent.change(input, { target: { value: '1708 21ST ST NW' } });
    await settle(1000);
    expect(screen.getByTestId('cost-tag').textContent).toBe('Cached · free');
  });

  it('refuses a placeholder SSL, 5,000 characters and non-Latin text before pricing them, and buys nothing', async () => {
    const input = await renderBox();
    for (const [text, words] of [
      ['0000 0000', 'placeholder'],
      ['A'.repeat(5000), '5,000 characters'],
      ['名前', 'Latin letters'],
    ] as const) {
      fireEvent.change(input, { target: { value: text } });
      await settle(1000);
      expect(screen.getByRole('alert').textContent).toContain(words);
      fireEvent.keyDown(input, { key: 'Enter' });
      await settle(1000);
      expect(screen.getByRole('button', { name: 'Find' }).hasAttribute('disabled')).toBe(true);
    }
    expect(priced()).toEqual([]);
    expect(bought()).toEqual([]);
  });

  it('reads a name as an owner and an SSL as an SSL, and lets the reading be changed by hand', async () => {
    const input = await renderBox();
    fireEvent.change(input, { target: { value: 'kuipers' } });
    await settle(1000);
    expect(screen.getByTestId('find-understood').textContent).toContain('Understood as owner: KUIPERS · Washington, DC');
    fireEvent.change(input, { target: { value: '0065-0007' } });
    await settle(1000);
    expect(screen.getByTestId('find-understood').textContent).toContain('Understood as SSL: 0065    0007');
    fireEvent.change(screen.getByRole('combobox', { name: 'Read as' }), { target: { value: 'address' } });
    await settle(1000);
    expect(screen.getByRole('alert').textContent).toBe('Not an address: it has no street name.');
  });

  it('reads a name as an owner in the jurisdiction a coverage without area ids lists for ownership, not refusing it', async () => {
    coverage.data = independentCoverage();
    const input = await renderBox();
    fireEvent.change(input, { target: { value: 'kuipers' } });
    await settle(1000);
    expect(screen.getByTestId('find-understood').textContent).toContain('Understood as owner: KUIPERS · District of Columbia');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says a find that matched nothing was charged when the service charged for it, never that it was free', async () => {
    noMatch.chargedMicroUsd = 10_000;
    const input = await renderBox();
    fireEvent.change(input, { target: { value: '1 nowhere st nw' } });
    await settle(1000);
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle(100);
    const status = screen.getByText(/Nothing matches the/).closest('p');
    expect(status?.textContent).toContain('Matched nothing; the service charged $0.01 for the lookup.');
    expect(status?.textContent).not.toMatch(/nothing was charged|free/i);
    expect(screen.getByTestId('find-delivery').textContent).toContain('Bought for $0.01');
  });

  it('says nothing was charged for a find that matched nothing only when its charge was 0', async () => {
    const input = await renderBox();
    fireEvent.change(input, { target: { value: '1 nowhere st nw' } });
    await settle(1000);
    fireEvent.keyDown(input, { key: 'Enter' });
    await settle(100);
    expect(screen.getByText(/Nothing matches the/).closest('p')?.textContent).toContain('Nothing was charged for the lookup.');
  });

  it('Escape clears the box', async () => {
    const input = await renderBox();
    fireEvent.change(input, { target: { value: '1708' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect((input as HTMLInputElement).value).toBe('');
  });
});
