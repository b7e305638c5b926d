// Before Alexandria's subject report ($0.25, under the confirmation threshold) or its comparables
// search is charged, the confirmation names what the catalog's coverage says the answer will lack;
// nothing is bought until it is confirmed. Where the coverage says nothing, the purchase is as before.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import type { PricedAnswer } from '../../shared/service/coverage-gaps.ts';
import { ChargeButton } from './ChargeButton.tsx';
import { useCoverageGap } from '../platform/coverage-gap.ts';
import type { RecordedPlatCall } from '../platform/fake-plat.ts';
import { renderWithQueries, settle, setUpViewTests } from '../platform/view-test-kit.tsx';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
const ALEXANDRIA = 'prop_220_e_del_ray';
const DC = 'prop_1708';

vi.mock('../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule, listedPrice, serviceAnswer } = await import('../platform/fake-plat.ts');
  const rows = (area_uid: string, name: string, status: string) =>
    ['ownership', 'assessment', 'sale', 'permit', 'building_characteristics'].map((domain_key) => ({ area_uid, jurisdiction: '', name, domain_key, status }));
  return fakePlatModule(importOriginal, calls, {
    previewCost: (request) => {
      const operation = (request as { operation: string }).operation;
      return listedPrice(operation, operation === 'v3.recordQuery' ? 250_000 : 0);
    },
    getEntity: (request) => {
      const ref = (request as { request: { path: { entity_ref: string } } }).request.path.entity_ref;
      return serviceAnswer({ entity: { entity_ref: ref, entity_kind: 'property', area_uid: ref === ALEXANDRIA ? 'area_us_va_alexandria' : 'area_us_dc', attributes: {} } }, 0);
    },
    getCatalogFacet: () =>
      serviceAnswer({ facet: 'coverage', items: [...rows('area_us_va_alexandria', 'Alexandria, VA', 'none'), ...rows('area_us_dc', 'Washington, DC', 'partial')] }, 0),
  });
});

setUpViewTests();
beforeEach(() => {
  calls.length = 0;
});

function Buy({ subjectRef, answer, onRun }: { subjectRef: string; answer: PricedAnswer; onRun: () => void }) {
  const lacking = useCoverageGap(answer, subjectRef);
  const request = { body: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: subjectRef } } as never;
  return <ChargeButton operation="queryRecords" request={request} label="Buy" what="the subject report" onRun={onRun} lacking={lacking} />;
}

describe('a priced confirmation says what the coverage says will be missing', () => {
  it('waits while the coverage is still being read: the button is not offered until it is known', async () => {
    const onRun = vi.fn();
    const request = { body: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: ALEXANDRIA } } as never;
    await renderWithQueries(<ChargeButton operation="queryRecords" request={request} label="Buy" what="the subject report" onRun={onRun} lacking="checking" />, 4);
    const button = screen.getByRole('button', { name: 'Buy' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.getAttribute('title')).toBe('Checking what the records hold for this property…');
    fireEvent.click(button);
    expect(onRun).not.toHaveBeenCalled();
  });

  it('says the coverage is being read right after the page opens, then what it lacks', async () => {
    const seen: unknown[] = [];
    function Probe() {
      seen.push(useCoverageGap('subject_report', ALEXANDRIA));
      return null;
    }
    await renderWithQueries(<Probe />, 6);
    for (let step = 0; step < 6; step++) await settle(50);
    expect(seen[0]).toBe('checking');
    expect(seen.at(-1)).toMatchObject({ mostlyEmpty: true });
  });

  it('names what Alexandria’s subject report will lack, before any charge', async () => {
    const onRun = vi.fn();
    await renderWithQueries(<Buy subjectRef={ALEXANDRIA} answer="subject_report" onRun={onRun} />, 6);
    for (let step = 0; step < 6; step++) await settle(50);
    fireEvent.click(screen.getByRole('button', { name: 'Buy' }));
    expect(onRun).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog').hasAttribute('open')).toBe(true);
    expect(screen.getByTestId('charge-lacking').textContent).toBe(
      'Mostly empty here. The service’s catalog says it holds no owner names, assessed values, sales, permits or building characteristics for Alexandria, VA: most of the subject report will read “Unavailable”.',
    );
    expect(screen.getByRole('dialog').textContent).toContain('costs $0.25');
    fireEvent.click(screen.getByRole('button', { name: 'Buy for $0.25' }));
    expect(onRun).toHaveBeenCalledWith({ confirmed: true });
  });

  it('says Alexandria’s comparables search can find no sale, before the charge', async () => {
    await renderWithQueries(<Buy subjectRef={ALEXANDRIA} answer="comparables_search" onRun={vi.fn()} />, 6);
    for (let step = 0; step < 6; step++) await settle(50);
    fireEvent.click(screen.getByRole('button', { name: 'Buy' }));
    expect(screen.getByRole('dialog').hasAttribute('open')).toBe(true);
    expect(screen.getByTestId('charge-lacking').textContent).toContain('holds no sales or building characteristics for Alexandria, VA');
    expect(screen.getByTestId('charge-lacking').textContent).toContain('the search can find no sale there.');
  });

  it('buys a DC subject report under the threshold without asking, as before', async () => {
    const onRun = vi.fn();
    await renderWithQueries(<Buy subjectRef={DC} answer="subject_report" onRun={onRun} />, 6);
    for (let step = 0; step < 6; step++) await settle(50);
    fireEvent.click(screen.getByRole('button', { name: 'Buy' }));
    expect(screen.queryByTestId('charge-lacking')).toBeNull();
    expect(screen.getByRole('dialog', { hidden: true }).hasAttribute('open')).toBe(false);
    expect(onRun).toHaveBeenCalledWith({});
  });
});
