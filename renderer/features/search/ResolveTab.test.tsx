// The Resolve tab with the platform faked: results stay with the lines they answered, long lines wrap,
// and a line's count is the service's total, with the rest offered at a price.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../app/App.tsx';
import { ResolveTab } from './ResolveTab.tsx';
import { useSearchStore } from './search-store.ts';

import type { RecordedPlatCall } from '../../platform/fake-plat.ts';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);

const candidate = (n: number) => ({
  entity_ref: `addr_${n}`,
  entity_kind: 'address',
  canonical_identity: { address: `${n} MAIN ST` },
  match_basis: 'address_partial',
  precision: 'approximate',
  method: 'address_match',
});

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule, listedPrice, serviceAnswer } = await import('../../platform/fake-plat.ts');
  return fakePlatModule(importOriginal, calls, {
    previewCost: () => listedPrice('v2.resolveEntities', 5_000),
    resolveEntities: (request) => {
      const body = (request as { request: { body: { items: Array<{ client_id: string }> } } }).request.body;
      return serviceAnswer(
        {
          items: body.items.map((item) => ({
            client_id: item.client_id,
            outcome: 'ambiguous',
            candidates: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(candidate),
            total_candidates: 303,
            next_candidate_cursor: 'cursor-2',
          })),
        },
        5_000,
      );
    },
  });
});

beforeEach(() => {
  calls.length = 0;
});
afterEach(() => {
  cleanup();
  useSearchStore.setState({ resolve: { text: '', areaUid: '', chosenSchemes: {}, run: null } });
});

/** The last request sent for an operation, once it has been sent. */
async function lastSent(operation: string, count: number): Promise<{ request: { body: Record<string, unknown> & { items: unknown[] } } }> {
  await waitFor(() => expect(calls.filter((call) => call.operation === operation).length).toBe(count));
  return calls.filter((call) => call.operation === operation).at(-1)?.request as never;
}

/** Clicks a ChargeButton once its price is known. */
async function clickPriced(button: HTMLElement) {
  await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
  fireEvent.click(button);
}

async function resolveText(text: string) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ResolveTab />
    </QueryClientProvider>,
  );
  fireEvent.change(screen.getByRole('textbox', { name: 'Lines to resolve, one per line' }), { target: { value: text } });
  await clickPriced(screen.getByRole('button', { name: /^Resolve \d+ lines?$/ }));
  await screen.findByRole('table', { name: 'Resolution outcomes' });
}

describe('ResolveTab', () => {
  it('keeps results with the lines they answered and says so once the text is edited, offering to resolve again', async () => {
    await resolveText('1 MAIN ST\n2 MAIN ST\n');
    expect(screen.queryByTestId('resolve-stale')).toBeNull();
    expect(screen.getByRole('table', { name: 'Resolution outcomes' })).toBeTruthy();

    // A line is inserted above: the results' line 1 and 2 are no longer the text's.
    fireEvent.change(screen.getByRole('textbox', { name: 'Lines to resolve, one per line' }), { target: { value: '9 ELM ST\n1 MAIN ST\n2 MAIN ST\n' } });
    const stale = screen.getByTestId('resolve-stale');
    expect(stale.textContent).toContain('These results are for the earlier text.');
    expect(within(stale).getAllByRole('listitem').map((item) => [item.getAttribute('value'), item.textContent])).toEqual([
      ['1', '1 MAIN ST'],
      ['2', '2 MAIN ST'],
    ]);
    const outcomes = screen.getByRole('table', { name: 'Resolution outcomes for the earlier text' });
    expect(within(outcomes).getAllByText('1 MAIN ST').length).toBeGreaterThan(0);
    expect(within(outcomes).queryByText('9 ELM ST')).toBeNull();

    await clickPriced(within(stale).getByRole('button', { name: 'Resolve the current text' }));
    expect(screen.queryByTestId('resolve-stale')).toBeNull();
    expect((await lastSent('resolveEntities', 2)).request.body.items).toHaveLength(3);
  });

  it('wraps a long line inside its cell', async () => {
    const long = `1 ${'VERY LONG STREET NAME '.repeat(140)}ST NW`;
    await resolveText(`${long}\n1 MAIN ST\n`);
    const linesTable = screen.getByRole('table', { name: 'Lines to resolve' });
    const cell = within(linesTable).getByText(long);
    expect(cell.classList.contains('resolve-line')).toBe(true);
    expect(cell.closest('.resolve-table')).not.toBeNull();
    const outcomeCell = within(screen.getByRole('table', { name: 'Resolution outcomes' })).getAllByText('1 MAIN ST')[0];
    expect(outcomeCell?.classList.contains('resolve-line')).toBe(true);
  });

  it('counts a line’s candidates as the service does and offers the rest, priced', async () => {
    await resolveText('1 MAIN ST\n');
    const outcomes = screen.getByRole('table', { name: 'Resolution outcomes' });
    expect(within(outcomes).getAllByText(/\(\d+ of \d+\)/).map((node) => node.textContent?.trim())).toContain('(1 of 303)');
    expect(within(outcomes).queryByText('(1 of 10)')).toBeNull();
    const more = screen.getByRole('list', { name: 'Lines with more candidates' });
    expect(more.textContent).toContain('Line 1: 10 of 303 candidates shown.');
    await clickPriced(within(more).getByRole('button', { name: 'Show 50 more' }));
    expect((await lastSent('resolveEntities', 2)).request.body).toMatchObject({ candidate_limit: 50, candidate_cursors: { L1: 'cursor-2' } });
    // A header row and the line's 20 candidates, the further page after the first.
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Resolution outcomes' })).getAllByRole('row')).toHaveLength(21));
  });
});
