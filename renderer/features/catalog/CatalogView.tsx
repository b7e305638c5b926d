// Catalog: which sources the service publishes for a jurisdiction (v4 catalog: publisher, dataset,
// kind, record count, as-of date, and each source's fields), and the v2 catalog facets. The v4
// catalog is free by the spec, so it is an ordinary query. The v2 catalog's price the spec does not
// state: it loads by itself only where it is known to be free, and otherwise waits for a priced button.
import { useId, useMemo, useRef, useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { CallBilling, IpcResponse } from '../../../shared/ipc.ts';
import { formatCount } from '../../../shared/format/number.ts';
import { jurisdictionName, type JurisdictionCode } from '../../../shared/jurisdictions.ts';
import { formatFieldValue } from '../../../shared/report/format.ts';
import { v2CatalogFacets, type V2CatalogFacet } from '../../../shared/service/v2.ts';
import { callService, type CallOptions } from '../../platform/service-calls.ts';
import { useKnownFree } from '../../platform/cost-preview.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { servicePagesQueryKey, serviceQueryKey } from '../../platform/query-keys.ts';
import { useAppInfo } from '../../platform/core-queries.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { CitationChip } from '../../components/CitationChip.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { fromV2Source, type CitationView } from '../../../shared/cited/citation.ts';
import { envelopeData, describeDelivery } from '../../components/service-data.ts';
import {
  cellDisplay,
  cellText,
  facetCitation,
  facetColumns,
  facetLabels,
  facetRowKey,
  isJurisdiction,
  jurisdictionGroups,
  noSourcesMessage,
  sourceRows,
  sourceTotals,
  type SourceField,
  type SourceRow,
} from './catalog-model.ts';
import { useCatalogUi, type CatalogTab } from './catalog-ui-store.ts';
import { TabPanel, Tabs } from '../../components/Tabs.tsx';
import './catalog.css';

const tabs: Array<{ id: CatalogTab; label: string }> = [
  { id: 'by_jurisdiction', label: 'Sources by jurisdiction' },
  ...v2CatalogFacets.map((facet) => ({ id: facet, label: facetLabels[facet] })),
];

export function CatalogView() {
  const tab = useCatalogUi((state) => state.tab);
  const setTab = useCatalogUi((state) => state.setTab);
  return (
    <div className="catalog">
      <Tabs label="Catalog sections" idPrefix="catalog" tabs={tabs} active={tab} onChange={setTab} />
      <TabPanel idPrefix="catalog" id={tab} className="catalog__panel">
        {tab === 'by_jurisdiction' ? <SourcesPanel /> : <FacetPanel key={tab} facet={tab} />}
      </TabPanel>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Sources of one jurisdiction (v4)

function SourcesPanel() {
  const jurisdiction = useCatalogUi((state) => state.jurisdiction);
  const setJurisdiction = useCatalogUi((state) => state.setJurisdiction);
  const selectedSourceId = useCatalogUi((state) => state.selectedSourceId);
  const selectSource = useCatalogUi((state) => state.selectSource);
  const selectId = useId();
  const groups = useMemo(() => jurisdictionGroups(), []);

  const request = { query: { jurisdiction } };
  const catalog = useQuery({
    queryKey: serviceQueryKey('getSourceCatalog', request),
    queryFn: () => callService('getSourceCatalog', request),
    select: (answer) => {
      const data = envelopeData(answer.envelope);
      // The service may say in its own words why a jurisdiction has nothing (Plat's local one does).
      const note = (data as { coverage_note?: unknown }).coverage_note;
      return { rows: sourceRows(data.items), billing: answer.billing, more: typeof data.next_cursor === 'string', note: typeof note === 'string' ? note : null };
    },
  });
  const rows = catalog.data?.rows;
  const selected = rows?.find((row) => row.sourceId === selectedSourceId) ?? null;

  const columns = useMemo<Column<SourceRow>[]>(
    () => [
      {
        id: 'publisher',
        header: 'Publisher',
        text: (row) => row.publisher,
        render: (row) => (
          <span className="catalog__publisher">
            <span>{row.publisher}</span> <CitationChip citation={row.citation} />
          </span>
        ),
        width: '26%',
      },
      { id: 'dataset', header: 'Dataset', text: (row) => row.dataset },
      { id: 'kind', header: 'Kind', text: (row) => row.kind, render: (row) => <code>{row.kind}</code> },
      {
        id: 'records',
        header: 'Records',
        text: (row) => String(row.records),
        render: (row) => formatCount(row.records),
        sortValue: (row) => row.records,
        align: 'right',
      },
      { id: 'asOf', header: 'As of', text: (row) => row.asOf, render: (row) => <span className="catalog__nowrap">{row.asOf}</span> },
      {
        id: 'fields',
        header: 'Fields',
        text: (row) => (row.fields ? String(row.fields.length) : ''),
        sortValue: (row) => row.fields?.length ?? null,
        render: (row) => (
          <button
            type="button"
            className="button button--small"
            aria-pressed={row.sourceId === selectedSourceId}
            aria-label={`${fieldsButtonText(row)} of ${row.dataset} (${row.sourceId})`}
            onClick={() => selectSource(row.sourceId === selectedSourceId ? null : row.sourceId)}
          >
            {fieldsButtonText(row)}
          </button>
        ),
      },
    ],
    [selectedSourceId, selectSource],
  );

  return (
    <section className="catalog__sources" aria-label="Published sources by jurisdiction">
      <div className="catalog__toolbar">
        <label htmlFor={selectId}>Jurisdiction</label>
        <select
          id={selectId}
          value={jurisdiction}
          onChange={(event) => {
            if (isJurisdiction(event.target.value)) setJurisdiction(event.target.value);
          }}
        >
          {groups.map((group) => (
            <optgroup key={group.label} label={group.label}>
              {group.options.map((option) => (
                <option key={option.code} value={option.code}>
                  {option.label} · {option.code}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        {catalog.data && <DeliveryNote billing={catalog.data.billing} />}
      </div>

      {catalog.isPending && (
        <p className="muted" role="status">
          Loading the sources published for {jurisdictionName(jurisdiction)}…
        </p>
      )}
      {catalog.isError && <ErrorNotice error={catalog.error} onRetry={() => void catalog.refetch()} />}
      {rows && rows.length === 0 && <NoSources jurisdiction={jurisdiction} serviceNote={catalog.data?.note ?? null} />}
      {rows && rows.length > 0 && (
        <>
          <SourceTotalsLine rows={rows} jurisdiction={jurisdiction} />
          <DataTable
            label={`Published sources for ${jurisdictionName(jurisdiction)}`}
            columns={columns}
            rows={rows}
            rowKey={(row) => row.sourceId}
            onOpen={(row) => selectSource(row.sourceId)}
            initialSort={{ columnId: 'records', direction: 'desc' }}
          />
          {catalog.data?.more && <p className="muted catalog__note">The service has more sources than this page lists.</p>}
          {selected ? (
            <SourceFields source={selected} onClose={() => selectSource(null)} />
          ) : (
            <p className="muted catalog__hint">Choose a source’s “fields” (or press Enter on its row) to see its fields, their types and examples.</p>
          )}
        </>
      )}
    </section>
  );
}

// The visible text is also the start of the button's name, so speech users can say what they see.
const fieldsButtonText = (row: SourceRow): string => (row.fields ? `${row.fields.length} fields` : 'Fields');

function SourceTotalsLine({ rows, jurisdiction }: { rows: SourceRow[]; jurisdiction: JurisdictionCode }) {
  const totals = sourceTotals(rows);
  return (
    <p className="catalog__totals">
      <strong>{jurisdictionName(jurisdiction)}</strong>: {totals.sources} {totals.sources === 1 ? 'source' : 'sources'} from {totals.publishers}{' '}
      {totals.publishers === 1 ? 'publisher' : 'publishers'}, {formatCount(totals.records)} records
      {totals.synthetic > 0 && (
        <>
          {' '}
          · <span className="catalog__synthetic">{totals.synthetic} synthetic (made for Plat’s sample, not a public record)</span>
        </>
      )}
    </p>
  );
}

function NoSources({ jurisdiction, serviceNote }: { jurisdiction: JurisdictionCode; serviceNote: string | null }) {
  // The same key as the status line's, so this reads what is already there.
  const info = useAppInfo();
  return (
    <div className="notice catalog__empty" role="status" data-testid="catalog-no-sources">
      <strong>No data for {jurisdictionName(jurisdiction)}.</strong> {noSourcesMessage(jurisdiction)}
      {serviceNote && <p>The service says: “{serviceNote}”</p>}
      {info.data?.service.mode === 'local-sample' && (
        <p className="muted">
          The bundled sample covers one DC assessment neighbourhood in full, DC permits and residential characteristics citywide, and parts of
          Alexandria, VA. It has no Maryland property records.
        </p>
      )}
    </div>
  );
}

const fieldColumns: Column<SourceField>[] = [
  { id: 'name', header: 'Field', text: (field) => field.name, render: (field) => <code>{field.name}</code>, width: '18%' },
  { id: 'type', header: 'Type', text: (field) => field.type, width: '8%' },
  { id: 'description', header: 'Description', text: (field) => field.description },
  { id: 'example', header: 'Example', text: (field) => field.example, render: (field) => <span className="mono">{field.example}</span>, width: '20%' },
];

function SourceFields({ source, onClose }: { source: SourceRow; onClose: () => void }) {
  // A catalog narrowed by jurisdiction lists fields; if this one did not, ask for the source alone.
  const request = { query: { source_id: source.sourceId } };
  const single = useQuery({
    queryKey: serviceQueryKey('getSourceCatalog', request),
    queryFn: () => callService('getSourceCatalog', request),
    enabled: source.fields === null,
    select: (answer) => sourceRows(envelopeData(answer.envelope).items).find((row) => row.sourceId === source.sourceId)?.fields ?? [],
  });
  const fields = source.fields ?? single.data;
  const headingId = useId();
  return (
    <section className="catalog__fields" aria-labelledby={headingId}>
      <header className="catalog__fields-header">
        <h2 id={headingId}>
          Fields of {source.dataset} <code className="muted">{source.sourceId}</code>
        </h2>
        <CitationChip citation={source.citation} />
        <span className="catalog__spacer" />
        <button type="button" className="button button--small" onClick={onClose}>
          Close fields
        </button>
      </header>
      {source.synthetic && (
        <p className="catalog__synthetic">This source is synthetic: values made for Plat’s sample, never a public record.</p>
      )}
      <p className="muted catalog__note">Search filters use these field names exactly as the publisher wrote them.</p>
      {single.isError && <ErrorNotice error={single.error} onRetry={() => void single.refetch()} />}
      {fields === undefined && !single.isError && (
        <p className="muted" role="status">
          Loading fields…
        </p>
      )}
      {fields !== undefined && (
        <DataTable
          label={`Fields of ${source.dataset}`}
          columns={fieldColumns}
          rows={fields}
          rowKey={(field) => field.name}
          empty="This source lists no fields."
        />
      )}
    </section>
  );
}

function DeliveryNote({ billing }: { billing: CallBilling }) {
  const delivery = describeDelivery(billing, { shownAgain: false });
  return (
    <span className="muted catalog__delivery">
      {delivery.headline} · served {delivery.servedAt}
    </span>
  );
}

// ---------------------------------------------------------------------------------------------
// One v2 facet

const PAGE_SIZE = 100;

function FacetPanel({ facet }: { facet: V2CatalogFacet }) {
  const firstPage = { query: { facet, page_size: PAGE_SIZE } };
  const free = useKnownFree('getCatalogFacet', firstPage);
  // What the person approved with the last priced button (its confirmation): null until one is pressed.
  const [approved, setApproved] = useState<CallOptions | null>(null);
  const nextOptions = useRef<CallOptions>({});
  const pages = useInfiniteQuery({
    queryKey: servicePagesQueryKey('getCatalogFacet', firstPage),
    queryFn: ({ pageParam }) =>
      pageParam === null
        ? callService('getCatalogFacet', firstPage, approved ?? {})
        : callService('getCatalogFacet', { query: { ...firstPage.query, cursor: pageParam } }, nextOptions.current),
    enabled: free || approved !== null,
    initialPageParam: null as string | null,
    getNextPageParam: (last) => {
      const cursor = last.envelope.meta.next_cursor;
      return typeof cursor === 'string' && cursor !== '' ? cursor : null;
    },
  });

  const view = useMemo(() => (pages.data ? facetView(pages.data.pages) : null), [pages.data]);
  const lastPage = pages.data?.pages.at(-1);
  const cursor = lastPage?.envelope.meta.next_cursor;
  const nextCursor = typeof cursor === 'string' && cursor !== '' ? cursor : null;

  const label = facetLabels[facet];
  if (pages.isPending && pages.fetchStatus === 'idle') {
    return (
      <div className="buy-prompt">
        <ChargeButton operation="getCatalogFacet" request={firstPage} label={`Load the ${label.toLowerCase()} facet`} what={`the ${label.toLowerCase()} facet`} primary={false} onRun={setApproved} />
      </div>
    );
  }
  if (pages.isPending) {
    return (
      <p className="muted" role="status">
        Loading the {label.toLowerCase()} facet…
      </p>
    );
  }
  if (pages.isError && !pages.isFetchNextPageError) return <ErrorNotice error={pages.error} onRetry={() => void pages.refetch()} />;
  if (!view) return null;
  if (view.kind === 'error') return <ErrorNotice error={view.error} />;

  return (
    <section className="catalog__facet" aria-label={`${label} facet of the v2 catalog`}>
      <div className="catalog__toolbar">
        {view.sources.length > 0 && (
          <span className="catalog__cited">
            <span className="muted">Cited from</span>
            {view.sources.map((source) => (
              <CitationChip key={source.ref} citation={source.citation} />
            ))}
          </span>
        )}
        <span className="catalog__spacer" />
        <span className="muted catalog__delivery">v2 catalog, {label.toLowerCase()} facet</span>
        {view.billing && <DeliveryNote billing={view.billing} />}
      </div>
      {view.warnings.map((warning) => (
        <p key={warning} className="notice notice--warning catalog__note">
          {warning}
        </p>
      ))}
      <GenericTable label={`${label} (v2 catalog)`} items={view.items} empty={`The service lists nothing under ${label.toLowerCase()}.`} />
      {pages.hasNextPage && nextCursor !== null && (
        <div className="catalog__more">
          <ChargeButton
            operation="getCatalogFacet"
            request={{ query: { ...firstPage.query, cursor: nextCursor } }}
            label={`Load the next ${PAGE_SIZE}`}
            what={`the next ${PAGE_SIZE} of the ${label.toLowerCase()} facet`}
            busy={pages.isFetchingNextPage}
            primary={false}
            onRun={(options) => {
              nextOptions.current = options;
              void pages.fetchNextPage();
            }}
          />
        </div>
      )}
      {pages.isFetchNextPageError && <ErrorNotice error={pages.error} onRetry={() => void pages.fetchNextPage()} />}
      {view.capabilities.length > 0 && (
        <section className="catalog__capabilities" aria-label={`What the ${label.toLowerCase()} facet supports`}>
          <h2>What this facet supports</h2>
          <GenericTable label={`Capabilities of the ${label.toLowerCase()} facet`} items={view.capabilities} empty="None listed." />
        </section>
      )}
    </section>
  );
}

type Item = Record<string, unknown>;
type FacetPage = IpcResponse<'getCatalogFacet'>;

type FacetView =
  | { kind: 'error'; error: unknown }
  | {
      kind: 'ok';
      items: Item[];
      capabilities: Item[];
      sources: Array<{ ref: string; citation: CitationView }>;
      warnings: string[];
      billing: CallBilling | null;
    };

/** All loaded pages of a facet as one table, with the sources the envelopes cite (each once). */
function facetView(pages: readonly FacetPage[]): FacetView {
  try {
    const datas = pages.map((page) => envelopeData(page.envelope));
    const seen = new Set<string>();
    const sources: Array<{ ref: string; citation: CitationView }> = [];
    for (const source of pages.flatMap((page) => page.envelope.provenance?.sources ?? [])) {
      const citation = fromV2Source(source);
      // Several sources of one publication (OTR's ownership, assessment and sale) read as one chip.
      const key = [citation.publisher, citation.dataset, citation.asOf, citation.synthetic].join('|');
      if (seen.has(key)) continue;
      seen.add(key);
      sources.push({ ref: source.source_ref, citation });
    }
    return {
      kind: 'ok',
      items: datas.flatMap((data) => data.items),
      capabilities: datas[0]?.capabilities ?? [],
      sources,
      warnings: [...new Set(pages.flatMap((page) => page.envelope.meta.warnings ?? []))],
      billing: pages.at(-1)?.billing ?? null,
    };
  } catch (error) {
    return { kind: 'error', error };
  }
}

function GenericTable({ label, items, empty }: { label: string; items: Item[]; empty: string }) {
  const columns = useMemo<Column<Item>[]>(() => {
    // Items that name a publisher get a chip, so each row says where it came from.
    const cited = items.some((item) => facetCitation(item) !== null);
    const citationColumn: Column<Item>[] = cited
      ? [
          {
            id: '__cited',
            header: 'Cited',
            text: (item) => facetCitation(item)?.publisher ?? '',
            render: (item) => {
              const citation = facetCitation(item);
              return citation ? <CitationChip citation={citation} /> : null;
            },
          },
        ]
      : [];
    return [
      ...citationColumn,
      ...facetColumns(items).map((column): Column<Item> => ({
        id: column.key,
        header: column.header,
        text: (item) => cellText(item[column.key]),
        render: (item) => cellDisplay(column.key, item[column.key]),
        ...(column.numeric
          ? {
              align: 'right' as const,
              sortValue: (item: Item) => (typeof item[column.key] === 'number' ? (item[column.key] as number) : null),
              render: (item: Item) => (typeof item[column.key] === 'number' ? formatFieldValue(column.key, item[column.key]) : cellText(item[column.key])),
            }
          : {}),
      })),
    ];
  }, [items]);
  const keyed = useMemo(() => items.map((item, index) => ({ item, key: facetRowKey(item, index) })), [items]);
  const keyOf = useMemo(() => new Map(keyed.map(({ item, key }) => [item, key])), [keyed]);
  return <DataTable label={label} columns={columns} rows={items} rowKey={(item) => keyOf.get(item) ?? ''} empty={empty} />;
}
