// The entity page's links with the platform faked by real answers of the embedded service: loaded by
// themselves because they are free, named by what a person recognises, labels that read from this
// entity, ids secondary, and the owner one click from its page.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../app/App.tsx';
import { ownerOfTrailEntry, useUiStore } from '../../app/ui-store.ts';
import { serviceQueryKey } from '../../platform/query-keys.ts';
import { fixtures, ids } from '../../../shared/graph/test-kit.ts';
import { independentRelationships, RELATIONSHIP_IDS } from '../../../shared/service/dialect-test-kit.ts';
import { ConnectedSection } from './ConnectedSection.tsx';
import type { RecordedPlatCall } from '../../platform/fake-plat.ts';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
/** An answer a test puts in place of the embedded service's. */
const override = vi.hoisted(() => ({ envelope: null as unknown }));
/** What previewCost answers for the relationships; null: free, as on the embedded service. */
const price = vi.hoisted(() => ({ preview: null as unknown }));

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule, listedPrice } = await import('../../platform/fake-plat.ts');
  const { fixtures: answers } = await import('../../../shared/graph/test-kit.ts');
  const billing = { chargedMicroUsd: 0, cacheHit: false, replayed: false, servedAt: '2026-11-23T21:53:21.544Z' };
  return fakePlatModule(importOriginal, calls, {
    previewCost: () => price.preview ?? listedPrice('v2.traverseRelationships', 0),
    traverseRelationships: (request) => {
      const { path, query } = (request as { request: { path: { entity_ref: string }; query: { depth: number } } }).request;
      const envelope =
        override.envelope !== null
          ? override.envelope
          : path.entity_ref === answers.relationshipsPlaceholder.envelope.data.root_ref
          ? answers.relationshipsPlaceholder.envelope
          : query.depth === 1
            ? answers.relationships1708Depth1.envelope
            : answers.relationships1708Depth2.envelope;
      return { envelope, billing };
    },
  });
});

beforeEach(() => {
  calls.length = 0;
  override.envelope = null;
  price.preview = null;
  useUiStore.setState({ activeView: 'owners', entityTrail: [] });
});
afterEach(cleanup);

function renderLinks(entityId: string, record: unknown = null) {
  const client = createQueryClient();
  // The record the page's Record section loaded (free): it names the entity's owner.
  if (record !== null) {
    client.setQueryData(serviceQueryKey('getEntity', { path: { entity_ref: entityId } }), {
      envelope: record,
      billing: { chargedMicroUsd: 0, cacheHit: false, replayed: false, servedAt: '2026-11-23T21:53:21.544Z' },
    });
  }
  render(
    <QueryClientProvider client={client}>
      <ConnectedSection entityId={entityId} areaUid="area_us_dc" />
    </QueryClientProvider>,
  );
  return screen.getByTestId('entity-connected');
}

describe('ConnectedSection', () => {
  it('lists the links by relation as they read from this entity, each entity by its name with its id secondary', async () => {
    const links = renderLinks(ids.property1708, fixtures.entityProperty1708.envelope);
    await within(links).findByText('4 entities within 2 links');
    const headings = within(links).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(headings).toEqual(['Located on 1', 'Taxed under 1', 'Has address 1', 'Owned by 1']);
    // Named by SSL, account number and address; never by a truncated id.
    for (const name of ['Parcel SSL 0065 0007', 'Tax account Account 0065 0007', 'Address 1708 21ST ST NW']) {
      expect(within(links).getByRole('button', { name })).toBeTruthy();
    }
    expect(within(links).queryByRole('button', { name: /…/ })).toBeNull();
    const parcelId = within(links).getByRole('button', { name: 'Copy id of Parcel SSL 0065 0007' });
    expect(parcelId.getAttribute('title')).toBe(`Copy ${ids.parcel1708}`);
    // Free: asked for once, by itself, at the depth shown.
    expect(calls.filter((call) => call.operation === 'traverseRelationships')).toHaveLength(1);

    fireEvent.click(within(links).getByRole('button', { name: 'Parcel SSL 0065 0007' }));
    expect(useUiStore.getState().entityTrail).toEqual([ids.parcel1708]);
  });

  it('opens the owner named by the entity’s record on the owner page, in its area', async () => {
    const links = renderLinks(ids.property1708, fixtures.entityProperty1708.envelope);
    const owned = await within(links).findByRole('region', { name: 'Owned by: 1' });
    expect(within(owned).getByText('JOEL KUIPERS').closest('.entity-connected__name')?.textContent).toBe('Owner JOEL KUIPERS');
    fireEvent.click(within(owned).getByRole('button', { name: 'Other holdings of this owner' }));
    const top = useUiStore.getState().entityTrail.at(-1) ?? '';
    expect(ownerOfTrailEntry(top)).toEqual({ name: 'JOEL KUIPERS', areaUid: 'area_us_dc' });
  });

  it('asks again at another depth and says how many entities it reaches', async () => {
    const links = renderLinks(ids.property1708);
    await within(links).findByText('3 entities within 2 links');
    fireEvent.change(within(links).getByLabelText('Link depth'), { target: { value: '1' } });
    expect(await within(links).findByText('3 entities within 1 link')).toBeTruthy();
    const depths = calls.filter((call) => call.operation === 'traverseRelationships').map((call) => (call.request as { request: { query: { depth: number } } }).request.query.depth);
    expect(depths).toEqual([2, 1]);
  });

  it('does not buy the links by itself on a service where their price is not known: it waits for a click that shows so', async () => {
    const { unknownPrice } = await import('../../platform/fake-plat.ts');
    price.preview = unknownPrice('v2.traverseRelationships');
    const links = renderLinks(ids.property1708);
    expect(await within(links).findByText('Price not known')).toBeTruthy();
    const button = within(links).getByRole('button', { name: 'List its links' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.filter((call) => call.operation === 'traverseRelationships')).toHaveLength(0);

    // A price not known is always confirmed first, saying so.
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('price not known; no charge for it seen yet');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Buy at a price not known' }));
    await within(links).findByText('3 entities within 2 links');
    const bought = calls.filter((call) => call.operation === 'traverseRelationships');
    expect(bought).toHaveLength(1);
    expect((bought[0]?.request as { confirmed?: boolean }).confirmed).toBe(true);
  });

  it('does not buy the links by itself when they have a price, however small', async () => {
    const { listedPrice } = await import('../../platform/fake-plat.ts');
    price.preview = { ...listedPrice('v2.traverseRelationships', 5_000), basis: 'last_observed', largestSeenMicroUsd: 5_000 };
    const links = renderLinks(ids.property1708);
    expect(await within(links).findByText('About $0.005, from your last call')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.filter((call) => call.operation === 'traverseRelationships')).toHaveLength(0);
  });

  it('warns on every link through a placeholder SSL and never offers a permit record as a page', async () => {
    const links = renderLinks(ids.parcelPlaceholder);
    const permits = await within(links).findByRole('region', { name: 'Has permit: 4' });
    expect(within(permits).getByText(/^A lead, not a fact: SSL 0000 0000 is a placeholder/)).toBeTruthy();
    expect(within(permits).queryByRole('button', { name: /^Permit record/ })).toBeNull();
    expect(within(permits).getByText('Permit B1401123')).toBeTruthy();
  });

  it('lists another service’s links (nodes by entity_ref, predicates it has no words for) as published, cited, never “Nothing is linked”', async () => {
    override.envelope = independentRelationships();
    const links = renderLinks(RELATIONSHIP_IDS.property);
    const group = await within(links).findByRole('region', { name: 'owner_of, read backwards — not recognised by Plat: 1' });
    expect(within(group).getByRole('button', { name: 'Address 1708 21ST ST NW' })).toBeTruthy();
    expect(within(group).getByRole('button', { name: /^DC OTR/ })).toBeTruthy();
    expect(within(links).getByRole('button', { name: 'Parcel SSL 0065 0007' })).toBeTruthy();
    expect(within(links).queryByText(/Nothing is linked/)).toBeNull();
  });

  it('shows an answer of a shape it cannot read as published with its citations, saying so, instead of “Nothing is linked”', async () => {
    const answer = independentRelationships();
    (answer.data as Record<string, unknown>).edges = [{ from: RELATIONSHIP_IDS.parcel, rel: 'situs_of', to: RELATIONSHIP_IDS.property }];
    override.envelope = answer;
    const links = renderLinks(RELATIONSHIP_IDS.property);
    const unread = await within(links).findByTestId('unrecognised-answer');
    expect(unread.textContent).toContain('Plat could not read the relationships answer: it is shown as published, not recognised by Plat.');
    expect(within(unread).getByText('edges[0].rel')).toBeTruthy();
    expect(within(unread).getAllByRole('button', { name: /^DC OTR/ })).toHaveLength(2);
    expect(within(links).queryByText(/Nothing is linked/)).toBeNull();
  });
});
