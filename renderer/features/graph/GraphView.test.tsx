// The Graph view with the platform faked and the drawing stood in for (no canvas here): what it asks
// by itself (only what is free), what waits for a click with its price, "why linked" with its
// citation, a cut kept with the assignment and drawn, the table, and the runsheet's CSV.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { useUiStore } from '../../app/ui-store.ts';
import type { RecordedPlatCall } from '../../platform/fake-plat.ts';
import { renderWithQueries, settle, setUpViewTests } from '../../platform/view-test-kit.tsx';
import type { RecordedDownload } from '../../platform/fake-download.ts';
import type * as PlatModule from '../../platform/plat.ts';
import type { EntityGraphProps } from '../../components/graph/graph-types.ts';
import { fixtures, ids } from '../../../shared/graph/test-kit.ts';
import { GraphView } from './GraphView.tsx';
import { defaultTraversal } from './graph-model.ts';
import { useGraphStore } from './graph-store.ts';

const calls = vi.hoisted(() => [] as RecordedPlatCall[]);
const state = vi.hoisted(() => ({ active: 'p1' as string | null, decisions: [] as unknown[], refuseDecision: false, searchesCached: false, unknownPrices: false, portfolio: false, dialect: 'embedded' as 'embedded' | 'independent' | 'no-sale-ssl' }));

vi.mock('../../platform/plat.ts', async (importOriginal) => {
  const { fakePlatModule, listedPrice, unknownPrice } = await import('../../platform/fake-plat.ts');
  const { fixtures: answers, ids: refs } = await import('../../../shared/graph/test-kit.ts');
  const catalogs = await import('../../../shared/service/record-fields-fixtures.ts');
  const { PlatCallError } = await importOriginal<typeof PlatModule>();
  const served = (envelope: unknown, chargedMicroUsd = 0) => ({
    envelope,
    billing: { chargedMicroUsd, cacheHit: false, replayed: false, servedAt: '2026-05-01T10:00:00.000Z', requestId: 'req_1', balanceMicroUsd: null, attempts: 1 },
  });
  const entityOf = (ref: string) =>
    ref === refs.property1708
      ? answers.entityProperty1708.envelope
      : ref === refs.parcel1708
        ? answers.entityParcel1708.envelope
        : ref === refs.parcel0451
          ? answers.entityParcel0451.envelope
          : { status: 'error', error: { code: 'not_found', message: 'No entity' } };
  return fakePlatModule(importOriginal, calls, {
    listProjects: () => ({
      projects: [
        {
          id: 'p1',
          name: 'Title 1708 21st St NW',
          capMicroUsd: null,
          archived: false,
          createdAt: '2026-05-01T00:00:00Z',
          assignment: { subjectRef: refs.property1708, subjectLabel: '1708 21ST ST NW', effectiveDate: '2017-01-01', intendedUse: '', client: '', reference: '', notes: '' },
        },
      ],
      activeProjectId: state.active,
    }),
    getAppInfo: () => ({ appName: 'Plat', appVersion: '0.1.0', runtime: 'browser-host', service: {} }),
    previewCost: (request) => {
      const { operation } = request as { operation: string };
      if (operation === 'v4.search' && state.searchesCached) return { ...listedPrice(operation, 0), basis: 'cached', cached: true };
      if (state.unknownPrices && operation.startsWith('v2.')) return unknownPrice(operation);
      return operation === 'v2.searchProperties' || operation === 'v4.search' ? listedPrice(operation, 20_000) : listedPrice(operation, 0);
    },
    getCatalogFacet: () => served({ status: 'ok', data: { facet: 'coverage', items: [{ area_uid: 'area_us_dc', name: 'Washington, DC', status: 'full', domain_key: 'ownership' }], capabilities: [] } }),
    traverseRelationships: (request) =>
      served((request as { request: { query: { depth: number } } }).request.query.depth === 1 ? answers.relationships1708Depth1.envelope : answers.relationships1708Depth2.envelope),
    getSourceCatalog: () =>
      served({
        status: 'ok',
        data: {
          items:
            state.dialect === 'embedded'
              ? catalogs.embeddedCatalog
              : state.dialect === 'independent'
                ? catalogs.independentCatalog
                : catalogs.independentCatalog.map((item) => (item.kind === 'sale' ? { ...item, fields: ['PARCEL', 'SALEPRICE'] } : item)),
          next_cursor: null,
        },
        error: null,
      }),
    getEntity: (request) => served(entityOf((request as { request: { path: { entity_ref: string } } }).request.path.entity_ref)),
    getConnectedEntities: () => served(answers.connected1708.envelope),
    searchProperties: () => served(state.portfolio ? largePortfolio(answers) : answers.searchKuipers.envelope, 20_000),
    searchRecords: () => {
      // As the core answers a "not found" the service answered: with the charge it booked for it.
      throw new PlatCallError({ code: 'not_found', message: 'No search matches', retryable: false, chargedMicroUsd: 0 });
    },
    getGraphDecisions: () => ({ decisions: state.decisions }),
    setGraphDecision: (request) => {
      const { edgeKey, decision } = request as { edgeKey: string; decision: { decision: string; note: string } | null };
      if (state.refuseDecision) throw new PlatCallError({ code: 'disk_full', message: 'The disk holding Plat’s data folder is full', retryable: true });
      state.decisions = [...state.decisions.filter((d) => (d as { edgeKey: string }).edgeKey !== edgeKey), ...(decision ? [{ edgeKey, ...decision, at: '2026-05-01T10:05:00.000Z' }] : [])];
      return { decisions: state.decisions };
    },
  });
});

/**
 * DISTRICT OF COLUMBIA's first two pages (20 parcels) and 12 more parcels made from them (other
 * ids, other SSLs on the same streets) in one complete answer: 32 holdings, above the grouping threshold.
 */
function largePortfolio(answers: typeof fixtures): unknown {
  type Item = Record<string, unknown> & { entity_ref: string; property_ref?: string };
  const pages = [answers.searchDc1.envelope, answers.searchDc2.envelope].map((envelope) => structuredClone(envelope) as { data: { items: Item[] } });
  const items = pages.flatMap((page) => page.data.items);
  const rows = [...new Set(items.map((item) => item.property_ref ?? item.entity_ref))].slice(0, 12);
  const copies = rows.flatMap((row, index) => {
    // Every id (entity and record) of the copy ends otherwise, and its SSL is another lot of the square.
    return items
      .filter((item) => (item.property_ref ?? item.entity_ref) === row)
      .map((item) =>
        JSON.parse(
          JSON.stringify(item)
            .replaceAll(/\b(prop|parc|unit|acct|rec)_([0-9a-f-]{32})[0-9a-f]{4}\b/g, `$1_$2${String(9000 + index)}`)
            .replaceAll(/"(\d{4})(\s+)\d{4}"/g, `"$1$2${String(7000 + index)}"`),
        ) as Item,
      );
  });
  const all = [...items, ...copies];
  const properties = new Set(all.map((item) => item.property_ref ?? item.entity_ref)).size;
  return { ...pages[0], data: { ...pages[0]!.data, items: all, properties_matched: properties, next_cursor: null }, meta: { ...(pages[0] as { meta?: object }).meta, next_cursor: null } };
}

// No canvas here: the drawing is stood in for by buttons that do what its nodes and links do.
const graphProps = vi.hoisted(() => ({ last: null as EntityGraphProps | null }));
vi.mock('../../components/graph/EntityGraph.tsx', () => ({
  EntityGraph: (props: EntityGraphProps) => {
    graphProps.last = props;
    return (
      <div role="application" aria-label={props.spec.altText} data-testid="graph-stub">
        {props.spec.nodes.map((node) => (
          <span key={node.id}>
            <button type="button" onClick={() => props.onSelectNode?.(node.id)}>
              Node {node.label}
            </button>
            <button type="button" onClick={() => props.onExpandNode?.(node.id)}>
              Enter on {node.label}
            </button>
          </span>
        ))}
        {props.spec.edges.map((edge) => (
          <button key={edge.id} type="button" data-decision={edge.decision ?? ''} onClick={() => props.onSelectEdge?.(edge.id)}>
            Link {edge.label} {edge.target}
          </button>
        ))}
      </div>
    );
  },
}));

const downloads = vi.hoisted(() => [] as RecordedDownload[]);
vi.mock('../../components/download.ts', async (importOriginal) => {
  const { recordTextDownloads } = await import('../../platform/fake-download.ts');
  return recordTextDownloads(importOriginal, downloads);
});

setUpViewTests();
beforeEach(() => {
  calls.length = 0;
  downloads.length = 0;
  state.active = 'p1';
  state.decisions = [];
  state.refuseDecision = false;
  state.searchesCached = false;
  state.unknownPrices = false;
  state.portfolio = false;
  state.dialect = 'embedded';
  graphProps.last = null;
  useUiStore.setState({ activeView: 'graph', graphRootId: null, entityTrail: [], focusGraph: false });
  useGraphStore.setState({ settings: defaultTraversal, hiddenKinds: [], hiddenRelations: [], tab: 'drawing', selection: null, added: {}, ownerAreaUid: null });
});

async function renderView() {
  return renderWithQueries(<GraphView />, 8);
}

const asked = (operation: string) => calls.filter((call) => call.operation === operation);
const ownerLink = () => graphProps.last?.spec.edges.find((edge) => edge.target === 'owner:JOEL KUIPERS');

describe('GraphView', () => {
  it('draws the assignment’s subject from the free answers alone, each priced before it was asked', async () => {
    await renderView();
    expect(screen.getByText('1708 21ST ST NW', { selector: '.graph-root__name' })).toBeTruthy();
    expect(graphProps.last?.spec.nodes.map((node) => node.label)).toEqual(['1708 21ST ST NW', 'SSL 0065 0007', 'Account 0065 0007', '1708 21ST ST NW', 'JOEL KUIPERS']);
    expect(graphProps.last?.spec.layout).toBe('layered');
    // Priced first, then asked: relationships (depth 2, both ways) and the record that names the owner.
    const prices = asked('previewCost').map((call) => (call.request as { operation: string }).operation);
    expect(prices).toEqual(expect.arrayContaining(['v2.traverseRelationships', 'v2.getEntity']));
    expect(asked('traverseRelationships').map((call) => (call.request as { request: unknown }).request)).toEqual([
      { path: { entity_ref: ids.property1708 }, query: { direction: 'both', depth: 2, max_nodes: 100, max_edges: 200, page_size: 100 } },
    ]);
    // Nothing priced was bought by itself.
    expect(asked('searchProperties')).toEqual([]);
    expect(asked('searchRecords')).toEqual([]);
    expect(screen.getByTestId('graph-sources').textContent).toContain('Drawn from 2 of 2 answers');
  });

  it('on a service whose link prices are not known, offers them at a button instead of “reading (free)” forever', async () => {
    state.unknownPrices = true;
    await renderView();
    // Nothing that may cost is asked by itself.
    expect(asked('traverseRelationships')).toEqual([]);
    expect(asked('getEntity')).toEqual([]);
    expect(screen.queryByText(/\(free\)…/)).toBeNull();
    const empty = screen.getByTestId('graph-unasked');
    expect(empty.textContent).toContain('may cost on this service');
    expect(within(empty).getAllByText('Price not known').length).toBeGreaterThan(0);
    fireEvent.click(within(empty).getByRole('button', { name: 'Read its links' }));
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Buy at a price not known' }));
    await settle();
    expect(asked('traverseRelationships')).toHaveLength(1);
  });

  it('explains a link in plain words with its record cited', async () => {
    await renderView();
    const taxed = graphProps.last?.spec.edges.find((edge) => edge.label === 'taxed under');
    fireEvent.click(screen.getByRole('button', { name: `Link taxed under ${taxed?.target}` }));
    const panel = screen.getByTestId('why-linked');
    expect(panel.textContent).toContain('1708 21ST ST NW — taxed under → Account 0065 0007');
    expect(panel.textContent).toContain('One record names both: 1708 21ST ST NW and Account 0065 0007 appear in the same row of DC Office of Tax and Revenue');
    expect(panel.textContent).toContain('As of the records released 2017-02-05; the records give no end date.');
    expect(panel.textContent).not.toMatch(/valid from|still valid/i);
    const chips = within(panel).getAllByRole('button', { name: /^DC OTR · 2017-02-05: source DC Office of Tax and Revenue/ });
    expect(chips).toHaveLength(2);
    fireEvent.click(chips[0]!);
    expect(within(panel).getByRole('dialog', { name: 'Source of this value' }).textContent).toMatch(/rec_(23cf6780|1b9a121d)/);
  });

  it('cuts a link only with a note, keeps it with the assignment, draws it cut, and withdraws it', async () => {
    await renderView();
    fireEvent.click(screen.getByRole('button', { name: 'Link owned by owner:JOEL KUIPERS' }));
    fireEvent.click(within(screen.getByTestId('why-linked')).getByRole('button', { name: 'Cut…' }));
    const dialog = screen.getByTestId('graph-decision-dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cut the link' }));
    await settle();
    expect(within(dialog).getByRole('alert').textContent).toMatch(/Write a note/);
    expect(asked('setGraphDecision')).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText(/Note/), { target: { value: '  Deed of 2013 names another Joel Kuipers.  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cut the link' }));
    await settle(50);
    expect(asked('setGraphDecision').map((call) => call.request)).toEqual([
      { assignmentId: 'p1', edgeKey: ownerLink()?.id, decision: { decision: 'cut', note: 'Deed of 2013 names another Joel Kuipers.' } },
    ]);
    await settle(50);
    expect(ownerLink()?.decision).toBe('cut');
    expect(screen.getByTestId('link-decision').textContent).toContain('Cut by you on');
    expect(screen.getByTestId('graph-status').textContent).toContain('Reached only through links you cut: JOEL KUIPERS.');
    // The panel, the drawing's count and the table say the cut at once: no longer "to confirm", no longer "from the records".
    expect(screen.getByTestId('link-standing').textContent).toBe('Cut by you');
    expect(graphProps.last?.spec.altText).toMatch(/ 1 cut by the researcher, none to confirm\./);
    // Put down, the panel lists every decision of the assignment with when and why; one opens its link again.
    fireEvent.keyDown(screen.getByTestId('why-linked'), { key: 'Escape' });
    fireEvent.click(screen.getByRole('tab', { name: 'Table' }));
    const ownerRow = within(screen.getByRole('table', { name: 'Links of the graph' }))
      .getAllByRole('row')
      .find((row) => row.textContent?.includes('owned by'));
    expect(ownerRow?.textContent).toMatch(/Owner of recordcut1 \(stated\)Cut/);
    fireEvent.click(screen.getByRole('tab', { name: 'Drawing' }));
    const listed = screen.getByTestId('graph-decisions');
    expect(listed.textContent).toMatch(/^Your decisions in this assignmentCut 1708 21ST ST NW — owned by → JOEL KUIPERS by you on 2026-05-01 \d\d:05:00: Deed of 2013 names another Joel Kuipers\.$/);
    fireEvent.click(within(listed).getByRole('button', { name: '1708 21ST ST NW — owned by → JOEL KUIPERS' }));

    fireEvent.click(screen.getByRole('button', { name: 'Withdraw the decision' }));
    await settle(50);
    await settle(50);
    expect(ownerLink()?.decision).toBeNull();
    expect(asked('setGraphDecision').at(-1)?.request).toEqual({ assignmentId: 'p1', edgeKey: ownerLink()?.id, decision: null });
  });

  it('keeps the note typed when the core refuses the decision, and says why', async () => {
    state.refuseDecision = true;
    await renderView();
    fireEvent.click(screen.getByRole('button', { name: 'Link owned by owner:JOEL KUIPERS' }));
    fireEvent.click(within(screen.getByTestId('why-linked')).getByRole('button', { name: 'Confirm…' }));
    const dialog = screen.getByTestId('graph-decision-dialog');
    fireEvent.change(within(dialog).getByLabelText(/Note/), { target: { value: 'Tax bill checked.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm the link' }));
    await settle(50);
    expect(dialog.hasAttribute('open')).toBe(true);
    expect(within(dialog).getByRole('alert').getAttribute('data-error-code')).toBe('disk_full');
    expect((within(dialog).getByLabelText(/Note/) as HTMLTextAreaElement).value).toBe('Tax bill checked.');
    expect(ownerLink()?.decision).toBeNull();
  });

  it('names the ends of a decided link this graph does not draw, never their ids', async () => {
    state.decisions = [{ edgeKey: `same_owner:${ids.parcel1708}→${ids.property1708}`, decision: 'confirmed', note: 'Same deed.', at: '2026-05-01T10:05:00.000Z' }];
    await renderView();
    const listed = screen.getByTestId('graph-decisions');
    expect(listed.textContent).toContain('SSL 0065 0007 — same owner name as → 1708 21ST ST NW (not drawn in this graph)');
    expect(listed.textContent).not.toMatch(/parc_|prop_/);
  });

  it('Escape in the link panel puts the selection down and the focus on the graph, not the page body', async () => {
    await renderView();
    fireEvent.click(screen.getByRole('button', { name: 'Link owned by owner:JOEL KUIPERS' }));
    const cut = within(screen.getByTestId('why-linked')).getByRole('button', { name: 'Cut…' });
    cut.focus();
    fireEvent.keyDown(cut, { key: 'Escape' });
    expect(screen.queryByTestId('why-linked')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: /^Drawn from/ }));
  });

  it('takes the focus to the graph when opened with “Open in the graph”', async () => {
    useUiStore.getState().openGraph(ids.property1708);
    await renderView();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: /^Drawn from/ }));
    expect(useUiStore.getState().focusGraph).toBe(false);
  });

  it('without an active assignment reads links but does not offer to decide', async () => {
    state.active = null;
    useUiStore.setState({ graphRootId: ids.property1708 });
    await renderView();
    fireEvent.click(screen.getByRole('button', { name: 'Link owned by owner:JOEL KUIPERS' }));
    const panel = screen.getByTestId('why-linked');
    expect(within(panel).queryByRole('button', { name: 'Cut…' })).toBeNull();
    expect(panel.textContent).toContain('Decisions are kept with an assignment');
    expect(asked('getGraphDecisions')).toEqual([]);
  });

  it('expands a free node at Enter, but shows a priced one’s price and waits for the click', async () => {
    // One step from the subject: its account is drawn but not expanded.
    useGraphStore.setState({ settings: { ...defaultTraversal, depth: 1 } });
    await renderView();
    fireEvent.click(screen.getByRole('button', { name: 'Enter on JOEL KUIPERS' }));
    await settle(50);
    expect(asked('searchProperties')).toEqual([]);
    const panel = screen.getByTestId('node-panel');
    expect(within(panel).getByTestId('cost-tag').textContent).toBe('$0.02');
    fireEvent.click(within(panel).getByRole('button', { name: 'Show other holdings' }));
    await settle(50);
    expect(asked('searchProperties').map((call) => (call.request as { request: { body: unknown } }).request.body)).toEqual([fixtures.searchKuipers.request.body]);

    const before = asked('traverseRelationships').length;
    fireEvent.click(screen.getByRole('button', { name: 'Enter on SSL 0065 0007' }));
    for (let step = 0; step < 4; step++) await settle(50);
    expect(asked('traverseRelationships').slice(before).map((call) => (call.request as { request: unknown }).request)).toEqual([
      { path: { entity_ref: ids.parcel1708 }, query: { direction: 'both', depth: 1, max_nodes: 100, max_edges: 200, page_size: 100 } },
    ]);
    // The parcel's connected entities too (free), and its record.
    expect(asked('getConnectedEntities').map((call) => (call.request as { request: unknown }).request)).toEqual([{ path: { q_id: ids.parcel1708 }, query: { depth: 1, limit: 100 } }]);
    expect(graphProps.last?.spec.nodes.find((node) => node.id === ids.parcel1708)?.expandable).toBe(false);
    // A node with nothing more to show asks for nothing.
    const count = calls.length;
    fireEvent.click(screen.getByRole('button', { name: 'Enter on SSL 0065 0007' }));
    await settle(50);
    expect(calls.slice(count).filter((call) => call.operation !== 'previewCost' && call.operation !== 'getGraphDecisions')).toEqual([]);
  });

  it('shows the same graph as sortable tables, a row opening its link', async () => {
    await renderView();
    fireEvent.click(screen.getByRole('tab', { name: 'Table' }));
    const links = screen.getByRole('table', { name: 'Links of the graph' });
    expect(within(links).getAllByRole('row')).toHaveLength(7);
    expect(links.textContent).toContain('Owner of record');
    const entities = screen.getByRole('table', { name: 'Entities of the graph' });
    expect(entities.textContent).toContain('JOEL KUIPERS');
    const row = within(links).getAllByRole('row').find((candidate) => candidate.textContent?.includes('assesses'));
    fireEvent.keyDown(row!, { key: 'Enter' });
    expect(screen.getByTestId('why-linked').textContent).toContain('Account 0065 0007 — assesses → SSL 0065 0007');
  });

  it('lists the subject parcel’s runsheet with its gaps, offers the record searches at their price, and exports the CSV', async () => {
    await renderView();
    fireEvent.click(screen.getByRole('tab', { name: 'Runsheet' }));
    for (let step = 0; step < 4; step++) await settle(50);
    const sheet = screen.getByTestId('runsheet');
    expect(sheet.textContent).toContain('Runsheet of SSL 0065 0007');
    const rows = within(within(sheet).getByRole('table')).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([expect.stringContaining('Date'), expect.stringContaining('2013-12-17Recorded sale'), expect.stringContaining('2017-02-05Owner of recordJOEL KUIPERS')]);
    expect(sheet.textContent).toContain('No earlier transfers in the sample: OTR publishes each lot’s last sale only.');
    expect(within(sheet).getAllByTestId('cost-tag').map((tag) => tag.textContent)).toEqual(['$0.02', '$0.02', '$0.02']);
    expect(asked('searchRecords')).toEqual([]);

    fireEvent.click(within(sheet).getByRole('button', { name: 'Search permit records' }));
    await settle(50);
    await settle(50);
    expect(sheet.textContent).toContain('none carry this SSL. Nothing was charged for the search.');

    fireEvent.click(within(sheet).getByRole('button', { name: 'Export runsheet CSV' }));
    expect(downloads).toHaveLength(1);
    expect(downloads[0]?.filename).toMatch(/^Title 1708 21st St NW – runsheet SSL 0065 0007 – \d{4}-\d{2}-\d{2}\.csv$/);
    expect(downloads[0]?.text.split('\r\n')[0]).toBe('Parcel,Date,Event,Owner named,Price,Detail,Status,Record,Sources');
    expect(downloads[0]?.text).toContain('SSL 0065 0007,2017-02-05,Owner of record,JOEL KUIPERS');
  });

  it('flags 0451 0828’s two owners of record on the roll of 2017-02-05 as a conflict, listing both records', async () => {
    useUiStore.setState({ graphRootId: ids.parcel0451 });
    await renderView();
    fireEvent.click(screen.getByRole('tab', { name: 'Runsheet' }));
    for (let step = 0; step < 4; step++) await settle(50);
    const sheet = screen.getByTestId('runsheet');
    const conflict = within(sheet).getByTestId('runsheet-conflict');
    expect(conflict.textContent).toMatch(/^2 owners of record as of the roll released 2017-02-05\./);
    expect(within(conflict).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^BRUNO A CHUMPITAZI MD PC V DIAZ .*rec_f905c9f6-233c-58e9-9cc9-c059ff23905e$/),
      expect.stringMatching(/^B CHUMPITAZI .*rec_3a7b6da0-622d-54eb-bb3c-9a3f91138488$/),
    ]);
    const rows = within(within(sheet).getByRole('table')).getAllByRole('row');
    expect(rows.filter((row) => row.textContent?.includes('Owner of record Conflict'))).toHaveLength(2);
    const gaps = within(sheet).getByRole('heading', { name: 'What the records do not show' }).parentElement as HTMLElement;
    expect(within(gaps).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Conflict: 2 records name 2 different owners of record for this parcel as of the roll released 2017-02-05: BRUNO A CHUMPITAZI MD PC V DIAZ and B CHUMPITAZI\./),
      expect.stringMatching(/^The records hold no trace of deeds, liens, mortgages or grantors and grantees for SSL 0451 0828: /),
      'No recorded sale of this parcel in the answers.',
      'No building permit in the answers is tied to this parcel.',
    ]);
    expect(sheet.textContent).not.toMatch(/valid from|still valid/i);
  });

  it('reads record searches already bought (cached, free) without a click', async () => {
    state.searchesCached = true;
    await renderView();
    fireEvent.click(screen.getByRole('tab', { name: 'Runsheet' }));
    for (let step = 0; step < 6; step++) await settle(50);
    expect(asked('searchRecords').map((call) => (call.request as { request: { query: { kind: string } } }).request.query.kind).sort()).toEqual(['ownership', 'permit', 'sale']);
    expect(screen.getByTestId('runsheet').textContent).toContain('The recorded sales of this parcel: none carry this SSL');
  });

  it('searches the runsheet’s records by the SSL field the service’s catalog names', async () => {
    state.dialect = 'independent';
    await renderView();
    fireEvent.click(screen.getByRole('tab', { name: 'Runsheet' }));
    for (let step = 0; step < 4; step++) await settle(50);
    fireEvent.click(within(screen.getByTestId('runsheet')).getByRole('button', { name: 'Search sale records' }));
    for (let step = 0; step < 2; step++) await settle(50);
    const filters = asked('searchRecords').map((call) => (call.request as { request: { query: { filter: string } } }).request.query.filter);
    expect(filters).toEqual([JSON.stringify({ SSL: '0065    0007' })]);
  });

  it('offers no search of a kind whose catalog names no SSL field, and says why before any charge', async () => {
    state.dialect = 'no-sale-ssl';
    await renderView();
    fireEvent.click(screen.getByRole('tab', { name: 'Runsheet' }));
    for (let step = 0; step < 4; step++) await settle(50);
    const sheet = screen.getByTestId('runsheet');
    expect(sheet.textContent).toContain('This service’s catalog names no SSL field for sale records in DC; Plat cannot search them by parcel.');
    expect(within(sheet).queryByRole('button', { name: 'Search sale records' })).toBeNull();
    expect(within(sheet).getByRole('button', { name: 'Search ownership records' })).toBeTruthy();
  });

  it('draws from an owner typed in the view only after the search is bought at its price', async () => {
    await renderView();
    fireEvent.change(screen.getByLabelText('Draw from'), { target: { value: 'joel kuipers' } });
    fireEvent.click(screen.getByRole('button', { name: 'Draw' }));
    for (let step = 0; step < 4; step++) await settle(50);
    expect(useUiStore.getState().graphRootId).toBe('owner:joel kuipers');
    expect(asked('searchProperties')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Find the holdings' }));
    for (let step = 0; step < 4; step++) await settle(50);
    expect(asked('searchProperties')).toHaveLength(1);
    // From an owner as from the holding: the holding's own ownership record names the owner, a fact.
    expect(ownerLink()).toMatchObject({ strength: 'fact', label: 'owned by' });

    fireEvent.change(screen.getByLabelText('Draw from'), { target: { value: 'prop_12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Draw' }));
    expect(screen.getByRole('alert').textContent).toMatch(/looks like an entity id but is not one Plat can draw/);
  });

  it('draws a large owner’s holdings in groups that open on demand, its status line counting what the canvas draws', async () => {
    state.portfolio = true;
    await renderView();
    fireEvent.change(screen.getByLabelText('Draw from'), { target: { value: 'DISTRICT OF COLUMBIA' } });
    fireEvent.click(screen.getByRole('button', { name: 'Draw' }));
    for (let step = 0; step < 4; step++) await settle(50);
    fireEvent.click(screen.getByRole('button', { name: 'Find the holdings' }));
    for (let step = 0; step < 6; step++) await settle(50);
    const drawnLine = () => screen.getByTestId('graph-drawn').textContent ?? '';
    const drawnCounts = () => {
      const spec = graphProps.last!.spec;
      return { entities: spec.nodes.filter((node) => !node.group).length, groups: spec.nodes.filter((node) => node.group && !node.group.open) };
    };
    const closed = drawnCounts();
    expect(closed.groups.length).toBeGreaterThan(0);
    // Every holding in a group: the owner alone is drawn, with its groups.
    expect(closed.entities).toBe(1);
    expect(drawnLine()).toMatch(new RegExp(`^Drawn: 1 entity and 0 links, with ${closed.groups.length} closed groups holding 64 more entities`));
    expect(drawnLine()).toContain('The table lists all 65 entities');
    expect(screen.getByTestId('graph-groups').textContent).toContain(`${closed.groups.length} groups`);

    // Enter (or a double click) on a group opens it: its holdings drawn inside it, the line counting them.
    const group = closed.groups[0]!;
    fireEvent.click(screen.getByRole('button', { name: `Enter on ${group.label}` }));
    await settle(50);
    const opened = drawnCounts();
    expect(graphProps.last!.spec.nodes.filter((node) => node.parent === group.id)).toHaveLength(group.group!.holdings);
    expect(opened.entities).toBe(closed.entities + group.group!.entities);
    expect(drawnLine()).toMatch(new RegExp(`^Drawn: ${opened.entities} entities`));
    expect(drawnLine()).toContain('1 group open');
    expect(asked('searchProperties')).toHaveLength(1);

    // Grouped by tax square instead: other groups, all closed.
    fireEvent.change(screen.getByLabelText('Group holdings by'), { target: { value: 'square' } });
    await settle(50);
    expect(graphProps.last!.spec.nodes.filter((node) => node.group).every((node) => node.group!.open === false && /^(Square |Other squares)/.test(node.label))).toBe(true);
  });
});
