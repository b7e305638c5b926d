// The side panel of one search record: its full source row, every field as the publisher wrote it,
// where it came from, and the entities it is about (each opens the entity page). Escape closes it.
import { useEffect, useRef } from 'react';
import type { V4SearchRecord } from '../../../shared/service/index.ts';
import { formatDate, formatDateValue } from '../../../shared/format-date.ts';
import { useUiStore } from '../../app/ui-store.ts';
import { CitationChip } from '../../components/CitationChip.tsx';
import { fromV4Citation } from '../../../shared/cited/citation.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { entityLinksOf, kindLabel, rawText, recordData } from './record-search.ts';

interface FieldRow {
  field: string;
  value: string | null;
}

const fieldColumns: Column<FieldRow>[] = [
  { id: 'field', header: 'Field', text: (row) => row.field, render: (row) => <span className="mono">{row.field}</span>, width: '40%' },
  {
    id: 'value',
    header: 'Value as published',
    // Copied exactly as published; a date is shown as a date, the published text on hover.
    text: (row) => row.value ?? '',
    render: (row) => {
      if (row.value === null) return <span className="muted">(empty)</span>;
      const date = formatDateValue(row.value);
      return date === null || date === row.value ? row.value : <span title={`Published as ${row.value}`}>{date}</span>;
    },
  },
];

export function RecordPanel({ record, onClose }: { record: V4SearchRecord; onClose: () => void }) {
  const openEntity = useUiStore((state) => state.openEntity);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const panelRef = useRef<HTMLElement>(null);

  useEffect(() => {
    // The panel takes focus (so Escape closes it) and comes into view under a long form.
    headingRef.current?.focus({ preventScroll: true });
    panelRef.current?.scrollIntoView({ block: 'nearest' });
  }, [record.record_ref]);

  const citation = fromV4Citation(record.citation, { sourceId: record.source_id, recordRef: record.record_ref });
  const rows: FieldRow[] = Object.entries(recordData(record)).map(([field, value]) => ({ field, value: rawText(value) }));
  const entities = entityLinksOf(record.q_ids);

  return (
    <aside
      ref={panelRef}
      className="record-panel stack gap-3"
      aria-labelledby="record-panel-title"
      onKeyDown={(event) => {
        // An open citation popover consumes its own Escape (CitationChip): it never reaches here.
        if (event.key !== 'Escape' || event.defaultPrevented) return;
        event.preventDefault();
        onClose();
      }}
    >
      <header className="record-panel__header">
        <h2 id="record-panel-title" ref={headingRef} tabIndex={-1}>
          Source row <span className="muted record-panel__kind">{kindLabel(record.kind).toLowerCase()}</span>
        </h2>
        <button type="button" className="button button--small" onClick={onClose} aria-label="Close the source row (Escape)">
          Close
        </button>
      </header>
      <dl className="facts record-panel__meta">
        <dt>Publisher</dt>
        <dd>
          {record.citation.source ?? 'Not stated'} <CitationChip citation={citation} />
        </dd>
        <dt>Dataset</dt>
        <dd>{record.citation.dataset ?? 'Not stated'}</dd>
        <dt>As of</dt>
        <dd>{record.citation.as_of ? formatDate(record.citation.as_of) : 'Not stated'}</dd>
        <dt>Record</dt>
        <dd className="mono">{record.record_ref}</dd>
      </dl>
      {citation.synthetic && (
        <p className="record-panel__synthetic" role="note">
          Synthetic: Plat’s sample made these values up from nearby public records. They are not a public record.
        </p>
      )}
      <section aria-label="Entities this record is about" className="record-panel__entities">
        <h3>About</h3>
        {entities.length === 0 ? (
          <p className="muted">The service names no entity for this record.</p>
        ) : (
          <ul>
            {entities.map((entity) => (
              <li key={entity.id}>
                <button type="button" className="button button--small" onClick={() => openEntity(entity.id)}>
                  Open {entity.kindLabel}
                </button>{' '}
                <span className="mono muted record-panel__id" title={entity.id}>
                  {entity.id}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <DataTable label={`Full source row of ${record.record_ref}`} columns={fieldColumns} rows={rows} rowKey={(row) => row.field} />
    </aside>
  );
}
