// The $0.10 summary once bought, from another service that holds its fields under `data.fields`: each
// canonical field shown with its citation, never a JSON blob marked "no citation given"; an entry Plat
// cannot read is shown as published with its citations and says so.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../app/App.tsx';
import { serviceQueryKey } from '../../platform/query-keys.ts';
import { independentSummary, INDEPENDENT_Q_ID, OTR_CITATION } from '../../../shared/service/dialect-test-kit.ts';
import { SummarySection } from './SummarySection.tsx';
import type { RecordedPlatCall } from '../../platform/fake-plat.ts';
import type { SummaryUseOf } from '../../app/entity-slots.ts';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule } = await import('../../platform/fake-plat.ts');
  return fakePlatModule(importOriginal, calls, {});
});

afterEach(cleanup);

function renderBought(envelope: unknown, assignmentUse?: SummaryUseOf) {
  const client = createQueryClient();
  client.setQueryData(serviceQueryKey('getEntitySummary', { path: { q_id: INDEPENDENT_Q_ID } }), {
    envelope,
    billing: { chargedMicroUsd: 100_000, cacheHit: false, replayed: false, servedAt: '2026-11-27T18:00:00.000Z' },
  });
  render(
    <QueryClientProvider client={client}>
      <SummarySection entityId={INDEPENDENT_Q_ID} areaUid={null} assignmentUse={assignmentUse} />
    </QueryClientProvider>,
  );
  return screen.getByTestId('entity-summary');
}

describe('SummarySection', () => {
  it('shows each canonical field of a summary held under data.fields with its citation, none as a blob', () => {
    const section = renderBought(independentSummary());
    const table = within(section).getByRole('table', { name: 'Entity summary' });
    expect(within(table).getByText('JOEL KUIPERS')).toBeTruthy();
    // Assessed value and last sale price, under the names the service gave (`assessed_value`, `last_sale_price`).
    expect(within(table).getAllByText('$1,361,000')).toHaveLength(2);
    expect(within(table).getByText('Assessed value')).toBeTruthy();
    expect(within(table).getAllByRole('button', { name: /^DC OTR · 2017-02-05/ }).length).toBeGreaterThan(3);
    expect(within(section).queryByText('no citation given')).toBeNull();
    expect(within(section).queryByText(/"fields"|\{"/)).toBeNull();
    expect(within(section).queryByTestId('unrecognised-answer')).toBeNull();
    // Shown from the answer held: not bought again.
    expect(calls.filter((call) => call.operation === 'getEntitySummary')).toEqual([]);
  });

  it('says, on a best value the active assignment does not use for its subject, which value it uses and why', () => {
    const asked: Array<[string, unknown]> = [];
    const section = renderBought(independentSummary(), (field, best) => {
      asked.push([field, best]);
      return field === 'year_built' ? { display: '2012 or later', why: 'the appraiser’s choice: “Permit B1104076 is new construction.”' } : null;
    });
    const note = within(section).getByTestId('summary-assignment-use-year_built');
    expect(note.textContent).toBe('The assignment uses 2012 or later (see Subject characteristics above): the appraiser’s choice: “Permit B1104076 is new construction.”');
    // The service's best value stays shown as published, beside the note.
    expect(within(note.closest('tr')!).getByText('1900')).toBeTruthy();
    expect(within(section).getAllByRole('note').filter((element) => element.dataset.testid?.startsWith('summary-assignment-use-'))).toHaveLength(1);
    expect(asked).toContainEqual(['year_built', 1900]);
  });

  it('shows an entry it cannot read as published, with the citation it carries, saying which part it could not read', () => {
    const section = renderBought(independentSummary({ roof: { material: 'slate', citation: OTR_CITATION } }));
    const unread = within(section).getByTestId('unrecognised-answer');
    expect(unread.textContent).toContain('Plat could not read the “Roof” entry: it is shown as published, not recognised by Plat.');
    expect(within(unread).getByText('material')).toBeTruthy();
    expect(within(unread).getByText('slate')).toBeTruthy();
    expect(within(unread).getByRole('button', { name: /^DC OTR · 2017-02-05/ })).toBeTruthy();
  });
});
