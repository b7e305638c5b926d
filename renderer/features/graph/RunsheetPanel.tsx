// A parcel's runsheet: every transfer and ownership record the answers hold, in date order, each value
// cited, the gaps said in words, exported as CSV. Read from the parcel's record (free, loaded by
// itself) and, at their price shown before the click, searches of its sale, ownership and permit
// records by SSL (a search that finds nothing is not charged, and says so).
import { useId, useMemo } from 'react';
import type { GraphModel } from '../../../shared/graph/build-graph.ts';
import { parcelRunsheet, runsheetCsv, runsheetEventLabels, type RunsheetEntry } from '../../../shared/graph/runsheet.ts';
import { CitationBook } from '../../../shared/cited/citation-book.ts';
import { citationView } from '../../../shared/cited/citation.ts';
import type { CitedValue } from '../../../shared/cited/value.ts';
import { isRecord } from '../../../shared/json-data.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { asOfRoll } from '../../../shared/format/as-of.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { CitationChip } from '../../components/CitationChip.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { ErrorNotice, platErrorOf } from '../../components/ErrorNotice.tsx';
import { downloadTextFile } from '../../components/download.ts';
import { usePaidAnswer } from '../../platform/paid-answer.ts';
import { useSourceCatalog } from '../../platform/source-catalog.ts';
import { entityRequest, parcelLabel, parcelSsl, runsheetCatalogRequest, runsheetFilename, runsheetSearches, runsheetSearchLabels, type RunsheetSearchKind } from './graph-model.ts';
import { SelectOptions } from '../../components/SelectOptions.tsx';
import { nothingFoundChargeWords } from '../../components/charge-words.ts';

type SearchParts = ReturnType<typeof runsheetSearches>[number]['parts'];

/** One record search: its button and price until it is held (one already bought, and so cached, loads by itself); then what it found. */
function useRecordSearch(parts: SearchParts | null) {
  const paid = usePaidAnswer('searchRecords', parts, { loadWhenFree: true });
  const error = paid.query.error;
  // The service answers "no search matches" as not found: nothing of this kind carries the SSL. What that
  // cost is the failure's own charge.
  const none = error !== null && platErrorOf(error).code === 'not_found';
  return { paid, none, noneCharge: none ? nothingFoundChargeWords(platErrorOf(error), 'the search') : null, envelope: paid.query.data?.envelope ?? null };
}

export function RunsheetPanel(props: {
  model: GraphModel;
  parcelId: string;
  /** The parcels the graph holds: the runsheet can be of any of them. */
  parcels: Array<{ id: string; label: string }>;
  onChooseParcel: (id: string) => void;
  assignmentName: string | null;
}) {
  const { model, parcelId } = props;
  const headingId = useId();
  const chooseId = useId();
  const entityParts = entityRequest(parcelId).parts as { path: { entity_ref: string } };
  const entity = usePaidAnswer('getEntity', entityParts, { loadWhenFree: true });
  const entityEnvelope = entity.query.data?.envelope;
  const ssl = parcelSsl(model, parcelId, entityEnvelope);
  // The catalog (free) names the field each kind carries the SSL in, and the fields its records are read by.
  const catalog = useSourceCatalog(runsheetCatalogRequest.query.jurisdiction);
  const catalogRead = catalog.query.isSuccess;
  const searches = useMemo(() => (ssl === null || !catalogRead ? null : runsheetSearches(ssl, catalog.items)), [ssl, catalogRead, catalog.items]);
  const sale = useRecordSearch(searches?.[0]?.parts ?? null);
  const ownership = useRecordSearch(searches?.[1]?.parts ?? null);
  const permit = useRecordSearch(searches?.[2]?.parts ?? null);
  const byKind: Record<RunsheetSearchKind, ReturnType<typeof useRecordSearch>> = { sale, ownership, permit };

  const built = useMemo(() => {
    const book = new CitationBook();
    const records = [sale.envelope, ownership.envelope, permit.envelope].filter((envelope) => envelope !== null);
    const sheet = parcelRunsheet({ parcelRef: parcelId, ...(entityEnvelope === undefined ? {} : { entity: entityEnvelope }), records, catalog: catalog.items }, book.cite);
    return { sheet, book, citations: new Map(book.all().map((citation) => [citation.id, citation])) };
  }, [parcelId, entityEnvelope, sale.envelope, ownership.envelope, permit.envelope, catalog.items]);
  const { sheet, citations } = built;
  const title = parcelLabel(model, parcelId, ssl);

  const chips = (...values: Array<CitedValue | null>) => {
    const ids = [...new Set(values.flatMap((value) => value?.citationIds ?? []))];
    return ids.map((id) => {
      const citation = citations.get(id);
      return citation ? <CitationChip key={id} citation={citationView(citation)} /> : null;
    });
  };
  const shown = (value: CitedValue | null) => (value === null ? '' : value.status === 'unavailable' ? '—' : value.display);
  const columns: Column<RunsheetEntry>[] = [
    { id: 'date', header: 'Date', text: (entry) => entry.day, width: '100px' },
    {
      id: 'event',
      header: 'Event',
      text: (entry) => `${runsheetEventLabels[entry.event]}${entry.conflict ? ' (conflict)' : ''}`,
      render: (entry) => (
        <>
          {runsheetEventLabels[entry.event]}
          {entry.conflict && <span className="graph-runsheet__conflict-flag"> Conflict</span>}
        </>
      ),
      width: '130px',
    },
    {
      id: 'party',
      header: 'Owner named',
      text: (entry) => shown(entry.party),
      render: (entry) => (entry.party.status === 'unavailable' ? <span className="muted" title={entry.party.limitation ?? undefined}>— {entry.party.limitation}</span> : entry.party.display),
    },
    { id: 'price', header: 'Price', text: (entry) => shown(entry.price), align: 'right', width: '150px' },
    { id: 'detail', header: 'Detail', text: (entry) => entry.detail },
    { id: 'sources', header: 'Sources', text: (entry) => entry.publisher ?? '', render: (entry) => <span className="graph-table__sources">{chips(entry.date, entry.party, entry.price)}</span> },
  ];

  const exportCsv = () => {
    downloadTextFile(runsheetFilename(props.assignmentName, title, formatDateTime(new Date()).slice(0, 10)), runsheetCsv(sheet, built.book.all()), 'text/csv;charset=utf-8');
  };

  return (
    <section className="graph-runsheet stack" aria-labelledby={headingId} data-testid="runsheet">
      <header className="graph-runsheet__head cluster">
        <h3 id={headingId}>Runsheet of {title}</h3>
        <button type="button" className="button" disabled={sheet.entries.length === 0 && sheet.gaps.length === 0} onClick={exportCsv}>
          Export runsheet CSV
        </button>
      </header>
      <p className="muted">Chain of title as far as the records go: every transfer and ownership record the answers hold, in date order.</p>
      {props.parcels.length > 1 && (
        <p>
          <label htmlFor={chooseId}>Parcel </label>
          <select id={chooseId} className="input input--compact" value={parcelId} onChange={(event) => props.onChooseParcel(event.target.value)}>
            <SelectOptions items={props.parcels} value={(parcel) => parcel.id} label={(parcel) => parcel.label} />
          </select>
        </p>
      )}
      {entity.query.isError && <ErrorNotice error={entity.query.error} onRetry={() => void entity.retry()} compact />}
      {entity.query.isFetching && entity.query.isPending && <p className="muted">Reading the parcel’s record (free)…</p>}
      {entity.query.isPending && !entity.query.isFetching && !entity.query.isError && (
        <div>
          <ChargeButton operation="getEntity" request={entityParts} label="Read the parcel’s record" what="the parcel’s record" primary={false} onRun={(options) => void entity.buy(options)} />
        </div>
      )}
      <div className="graph-runsheet__searches stack gap-1">
        {catalog.query.isError && <ErrorNotice error={catalog.query.error} onRetry={() => void catalog.query.refetch()} compact />}
        {searches === null ? (
          <p className="muted">
            {entityEnvelope === undefined
              ? 'Record searches are offered once the parcel’s record is read.'
              : ssl === null
                ? 'The parcel has no SSL in the answers, so its records cannot be searched by one.'
                : 'Record searches are offered once the catalog of DC’s records (free) is read: it names the fields to search by.'}
          </p>
        ) : (
          searches.map(({ kind, parts, problem }) => {
            const search = byKind[kind];
            const label = runsheetSearchLabels[kind];
            if (parts === null) return <p key={kind} className="graph-runsheet__search">{capitalised(label.what)}: {problem}</p>;
            if (search.envelope !== null) {
              const found = recordCount(search.envelope);
              return <p key={kind} className="graph-runsheet__search">{capitalised(label.what)}: searched, {found === 1 ? '1 record' : `${found} records`} found.</p>;
            }
            if (search.none) {
              return (
                <p key={kind} className="graph-runsheet__search">
                  {capitalised(label.what)}: none carry this SSL.{search.noneCharge ? ` ${search.noneCharge}` : ''}
                </p>
              );
            }
            return (
              <div key={kind} className="graph-runsheet__search">
                <ChargeButton operation="searchRecords" request={parts} label={label.button} what={label.what} primary={false} busy={search.paid.query.isFetching} onRun={(options) => void search.paid.buy(options)} />
                {search.paid.query.isError && <ErrorNotice error={search.paid.query.error} onRetry={() => void search.paid.retry()} compact />}
              </div>
            );
          })
        )}
      </div>
      {sheet.conflicts.map((conflict) => (
        <div key={conflict.day} className="notice notice--warning graph-runsheet__conflict stack gap-1" role="note" data-testid="runsheet-conflict">
          <p>
            <strong>{conflict.names.length} owners of record {asOfRoll(conflict.day)}.</strong> The records do not say which holds title, or whether each holds a share; Plat shows both and chooses neither.
          </p>
          <ul>
            {sheet.entries
              .filter((entry) => conflict.keys.includes(entry.key))
              .map((entry) => (
                <li key={entry.key}>
                  {entry.party.display} {chips(entry.party)} <span className="mono graph-records__ref">{entry.recordRef}</span>
                </li>
              ))}
          </ul>
        </div>
      ))}
      <DataTable label={`Runsheet of ${title}`} columns={columns} rows={sheet.entries} rowKey={(entry) => entry.key} empty="No transfer or ownership record in the answers yet." />
      {sheet.gaps.length > 0 && (
        <div className="graph-runsheet__gaps">
          <h4>What the records do not show</h4>
          <ul>
            {sheet.gaps.map((gap) => (
              <li key={gap}>{gap}</li>
            ))}
          </ul>
        </div>
      )}
      {sheet.problems.length > 0 && (
        <div className="notice notice--warning" role="status">
          <ul>
            {sheet.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** How many records a search answer lists. */
function recordCount(envelope: unknown): number {
  const data = isRecord(envelope) && isRecord(envelope.data) ? envelope.data : null;
  return data && Array.isArray(data.items) ? data.items.length : 0;
}
