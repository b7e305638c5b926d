// The effective-date field warns, as the date is typed, when the date lies outside the sales the
// service's catalog states (and says nothing of coverage when the catalog states none), and for a
// date far in the future or the distant past; the typed text stays as typed.
import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import type * as PlatModule from '../../platform/plat.ts';
import type { RecordedPlatCall } from '../../platform/fake-plat.ts';
import { renderWithQueries, settle, setUpViewTests } from '../../platform/view-test-kit.tsx';
import { AssignmentFields } from './AssignmentFields.tsx';
import { newAssignmentDraft } from './assignment-model.ts';
import { localToday } from '../../../shared/format-date.ts';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
const catalog = vi.hoisted(() => ({ items: [] as unknown[] }));

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule, listedPrice, serviceAnswer } = await import('../../platform/fake-plat.ts');
  return fakePlatModule(importOriginal as () => Promise<typeof PlatModule>, calls, {
    previewCost: (request) => listedPrice((request as { operation: string }).operation, 0),
    queryRecords: () => serviceAnswer({ items: catalog.items }, 0),
  });
});

setUpViewTests();
beforeEach(() => {
  calls.length = 0;
  catalog.items = [];
});

function Form() {
  const [draft, setDraft] = useState(newAssignmentDraft('1708 21ST ST NW', localToday()));
  return <AssignmentFields draft={draft} errors={{}} onChange={setDraft} withCap={false} />;
}

async function typeDate(text: string) {
  const input = screen.getByLabelText('Effective date') as HTMLInputElement;
  fireEvent.change(input, { target: { value: text } });
  await settle(10);
  return input;
}

const warning = () => screen.queryByTestId('effective-date-warning')?.textContent ?? null;

describe('the effective-date field', () => {
  it('warns that today, the default, is after the last sale the catalog states, before any search is bought', async () => {
    catalog.items = [{ dataset: 'sales', field: 'sale_date', data_type: 'date', description: 'Sale date', coverage: { earliest: '1991-02-03', latest: '2004-05-06' } }];
    await renderWithQueries(<Form />, 4);
    expect(warning()).toContain('after the last sale the service holds (2004-05-06)');
    await typeDate('1990-01-01');
    expect(warning()).toContain('before the first sale the service holds (1991-02-03)');
    await typeDate('2000-06-01');
    expect(warning()).toBeNull();
  });

  it('says nothing of coverage on a service whose catalog states none, but still questions 1900-01-01 and 2099-12-31', async () => {
    catalog.items = [{ dataset: 'sales', field: 'sale_date', data_type: 'date', description: 'Sale date' }];
    await renderWithQueries(<Form />, 4);
    expect(warning()).toBeNull();
    const input = await typeDate('2099-12-31');
    expect(warning()).toContain('more than 2 years after today');
    expect(input.value).toBe('2099-12-31');
    await typeDate('1900-01-01');
    expect(warning()).toContain('more than 75 years before today');
    // Bad input loses nothing: the text stays as typed.
    expect((await typeDate('1900-13-45')).value).toBe('1900-13-45');
  });
});
