// The entity's own record (v2 get_entity, priced per call): identifiers, attributes with their
// citations and alternatives, the sources behind it, coverage status and validity dates. Fetched
// only from its button, then kept for the session like any bought answer.
import { useEffect, useId, useMemo } from 'react';
import { fromV4Citation, type CitationView } from '../../../shared/cited/citation.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { CitationChip } from '../../components/CitationChip.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import type { IpcResponse } from '../../../shared/ipc.ts';
import type { V2Entity } from '../../../shared/service/v2.ts';
import { formatDate } from '../../../shared/format-date.ts';
import { asOfRecords } from '../../../shared/format/as-of.ts';
import { attributeRows, capitalise, identifierRows, provenanceCitations, provenanceViews, type IdentifierRow, type SummaryRow } from './entity-model.ts';
import { envelopeData } from '../../components/service-data.ts';
import { usePaidAnswer } from '../../platform/paid-answer.ts';
import { DeliveryLine } from '../../components/DeliveryLine.tsx';
import { FieldTable } from './FieldTable.tsx';
import { Limitations } from './SummarySection.tsx';
import { useEntityCaptions } from '../../components/entity-captions.ts';
import { isRecord } from '../../../shared/json-data.ts';
import { useUiStore } from '../../app/ui-store.ts';

interface PermitRow {
  key: string;
  permit: string;
  type: string;
  status: string;
  issued: string;
  address: string;
  description: string;
  citation: CitationView | null;
  /** What the permit cannot be trusted for (its SSL is a placeholder, not a parcel key). */
  limitations: string[];
}

interface RecordView {
  entity: V2Entity;
  identifiers: IdentifierRow[];
  attributes: SummaryRow[];
  permits: PermitRow[];
  location: { text: string; citation: CitationView | null } | null;
  limitations: string[];
  sources: CitationView[];
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

function recordView(envelope: IpcResponse<'getEntity'>['envelope']): RecordView {
  const { entity } = envelopeData(envelope);
  const citations = provenanceCitations(envelope.provenance?.sources);
  const extra = entity as V2Entity & Record<string, unknown>;
  const cite = (value: unknown): CitationView | null => (isRecord(value) ? fromV4Citation(value) : null);
  const permits = Array.isArray(extra.permits)
    ? extra.permits.filter(isRecord).map((permit, index) => ({
        key: `${text(permit.record_ref)}:${index}`,
        permit: text(permit.permit_id),
        type: text(permit.record_type),
        status: text(permit.status),
        issued: formatDate(text(permit.issue_date)),
        address: text(permit.address),
        description: text(permit.description),
        citation: cite(permit.citation),
        limitations: Array.isArray(permit.limitations) ? permit.limitations.filter((line): line is string => typeof line === 'string') : [],
      }))
    : [];
  const location = isRecord(extra.location)
    ? {
        text: `${text(extra.location.lat)}, ${text(extra.location.lon)}${typeof extra.location.precision === 'string' ? ` (${extra.location.precision.replace(/_/g, ' ')})` : ''}`,
        citation: cite(extra.location.citation),
      }
    : null;
  // One chip per publication behind the record (OTR's ownership, assessment and sale rows are one).
  const bySource = new Map<string, CitationView>();
  for (const citation of provenanceViews(citations)) bySource.set([citation.publisher, citation.dataset, citation.asOf, citation.synthetic].join('|'), citation);
  return {
    entity,
    identifiers: identifierRows(entity.identifiers, citations, entity.source_refs),
    attributes: attributeRows(entity.attributes, citations, entity.source_refs),
    permits,
    location,
    limitations: Array.isArray(extra.limitations) ? extra.limitations.filter((l): l is string => typeof l === 'string') : [],
    sources: [...bySource.values()],
  };
}

const identifierColumns: Column<IdentifierRow>[] = [
  { id: 'scheme', header: 'Scheme', text: (row) => row.scheme.replace(/_/g, ' '), width: '22%' },
  { id: 'value', header: 'Value', text: (row) => row.value, render: (row) => <span className="mono entity-record__identifier">{row.value}</span> },
  { id: 'source', header: 'Source', text: (row) => row.citation?.publisher ?? '', render: (row) => (row.citation ? <CitationChip citation={row.citation} /> : <span className="muted">uncited</span>) },
];

const permitColumns: Column<PermitRow>[] = [
  { id: 'permit', header: 'Permit', text: (row) => row.permit, render: (row) => <span className="mono">{row.permit}</span> },
  { id: 'type', header: 'Type', text: (row) => row.type },
  { id: 'status', header: 'Status', text: (row) => row.status },
  { id: 'issued', header: 'Issued', text: (row) => row.issued },
  { id: 'address', header: 'Address', text: (row) => row.address },
  {
    id: 'description',
    header: 'Work',
    text: (row) => [row.description, ...row.limitations].join(' '),
    render: (row) => (
      <>
        {row.description}
        {row.limitations.map((limitation) => (
          <span key={limitation} className="entity-record__permit-limitation">
            {limitation}
          </span>
        ))}
      </>
    ),
  },
  { id: 'source', header: 'Source', text: (row) => row.citation?.publisher ?? '', render: (row) => (row.citation ? <CitationChip citation={row.citation} /> : null) },
];

export function RecordSection({ entityId }: { entityId: string }) {
  const headingId = useId();
  const request = { path: { entity_ref: entityId } };
  const { query, buy, retry, shownAgain } = usePaidAnswer('getEntity', request, { loadWhenFree: true });
  const remember = useEntityCaptions((state) => state.remember);

  const view = useMemo((): { ok: RecordView } | { error: unknown } | null => {
    if (!query.data) return null;
    try {
      return { ok: recordView(query.data.envelope) };
    } catch (error) {
      return { error };
    }
  }, [query.data]);

  const address = view && 'ok' in view ? view.ok.attributes.find((row) => row.field === 'address')?.best?.text : undefined;
  useEffect(() => {
    if (address) remember({ [entityId]: address });
  }, [address, entityId, remember]);

  return (
    <section className="entity-section stack" aria-labelledby={headingId} data-testid="entity-record">
      <header className="entity-section__header">
        <h2 id={headingId}>Record</h2>
        <span className="muted entity-section__source">identifiers, attributes and sources · v2</span>
      </header>
      {!query.data && (
        <div className="buy-prompt">
          <p className="muted">The entity as the service holds it: identifiers, every attribute with its source, coverage and validity dates.</p>
          <ChargeButton operation="getEntity" request={request} label="Load the record" what="the entity record" busy={query.isFetching} onRun={buy} primary={false} />
        </div>
      )}
      {query.isError && <ErrorNotice error={query.error} onRetry={retry} />}
      {query.data && <DeliveryLine billing={query.data.billing} shownAgain={shownAgain} />}
      {view && 'error' in view && <ErrorNotice error={view.error} />}
      {view && 'ok' in view && <RecordBody view={view.ok} />}
    </section>
  );
}

function RecordBody({ view }: { view: RecordView }) {
  const { entity } = view;
  const openOwner = useUiStore((state) => state.openOwner);
  const facts: Array<[string, string]> = [
    ['Kind', capitalise((entity.entity_kind ?? '').replace(/_/g, ' '))],
    ['Status', entity.status ?? '—'],
    ['Coverage', entity.coverage_status ?? '—'],
    ['Area', entity.area_uid ?? '—'],
    // The service's valid_from is the release the record was read from: an as-of date, not a start, and no proof it holds today.
    ['Dated', entity.valid_from ? capitalise(asOfRecords(entity.valid_from)) : '—'],
    ['End date', entity.valid_to ? formatDate(entity.valid_to) : 'None given'],
  ];
  return (
    <div className="entity-record stack">
      <dl className="facts entity-record__facts">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        {view.location && (
          <div className="entity-record__wide">
            <dt>Location</dt>
            <dd>
              {view.location.text} {view.location.citation && <CitationChip citation={view.location.citation} />}
            </dd>
          </div>
        )}
      </dl>
      {view.sources.length > 0 && (
        <p className="entity-record__sources cluster gap-1">
          <span className="muted">Sources</span>
          {view.sources.map((citation) => (
            <CitationChip key={[citation.publisher, citation.dataset, citation.asOf].join('|')} citation={citation} />
          ))}
        </p>
      )}
      <h3>Identifiers</h3>
      <DataTable label="Identifiers" columns={identifierColumns} rows={view.identifiers} rowKey={(row) => `${row.scheme}:${row.value}`} empty="No identifiers." />
      <h3>Attributes</h3>
      <FieldTable
        label="Attributes"
        rows={view.attributes}
        empty="The record lists no attributes."
        onOwner={(name) => openOwner(name, entity.area_uid ?? null)}
      />
      {view.permits.length > 0 && (
        <>
          <h3>Permits</h3>
          <DataTable label="Permits" columns={permitColumns} rows={view.permits} rowKey={(row) => row.key} />
        </>
      )}
      {view.limitations.length > 0 && <Limitations items={view.limitations} />}
    </div>
  );
}
