// Records tab: one record kind in one jurisdiction, filtered on the source's own fields (v4 search).
// The catalog (free) says which kinds and fields exist; a page of results costs money, so every
// page is fetched only by a click on a priced button, and pages already bought stay one click away.
import { useMemo, useRef, type KeyboardEvent } from 'react';
import type { IpcResponse } from '../../../shared/ipc.ts';
import { findJurisdiction } from '../../../shared/jurisdictions.ts';
import type { V4SearchRecord } from '../../../shared/service/index.ts';
import { CitationChip } from '../../components/CitationChip.tsx';
import { fromV4Citation } from '../../../shared/cited/citation.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useSourceCatalog } from '../../platform/source-catalog.ts';
import { fieldForRole, recordFieldMap } from '../../../shared/service/record-fields.ts';
import { JurisdictionPicker } from './JurisdictionPicker.tsx';
import { RecordPanel } from './RecordPanel.tsx';
import {
  buildRecordSearchQuery,
  cellText,
  fieldsForKind,
  isSyntheticSource,
  kindLabel,
  kindsOf,
  operatorLabel,
  operatorsFor,
  recordColumnsFor,
  recordData,
  type RecordFilterDraft,
  type RecordSearchQuery,
  type SourceFieldInfo,
} from './record-search.ts';
import { blankFilterDraft, useSearchStore } from './search-store.ts';
import { SearchFilters, SearchFormActions } from './SearchFormParts.tsx';
import { submitOnEnter } from './submit-on-enter.ts';
import { cellContent, PagedResultsHead, PagedSearchButton, usePagedSearch } from './PageBar.tsx';
import { FilterRow, type FilterRowProps } from './FilterRow.tsx';
import { PerPageField, PerPageProblem } from './PerPageField.tsx';
import { formatCount } from '../../../shared/format/number.ts';
import { nothingFoundChargeWords } from '../../components/charge-words.ts';

const MAX_FILTERS = 5;

export function RecordsTab() {
  const form = useSearchStore((state) => state.records.form);
  const run = useSearchStore((state) => state.records.run);
  const openRecordRef = useSearchStore((state) => state.records.openRecordRef);
  const updateForm = useSearchStore((state) => state.updateRecordsForm);
  const setRun = useSearchStore((state) => state.setRecordsRun);
  const openRecord = useSearchStore((state) => state.openRecord);
  const runButtonRef = useRef<HTMLDivElement>(null);
  const tableRef = useRef<HTMLDivElement>(null);

  // The catalog of the chosen jurisdiction: free, so an ordinary query.
  const { query: catalog, items: catalogItems } = useSourceCatalog(form.jurisdiction);
  const kinds = useMemo(() => kindsOf(catalogItems), [catalogItems]);
  // The example names the owner field as this service's catalog does (`owner`, `OWNERNAME`…).
  const ownerField = useMemo(() => fieldForRole(recordFieldMap(catalogItems, 'ownership'), 'owner_name'), [catalogItems]);
  // A kind or source from another jurisdiction's catalog does not apply here.
  const kindOption = kinds.find((option) => option.kind === form.kind);
  const kind = kindOption ? form.kind : '';
  const sourceId = kindOption?.sources.some((source) => source.source_id === form.sourceId) ? form.sourceId : '';
  const fields = useMemo(() => fieldsForKind(catalogItems, kind, sourceId), [catalogItems, kind, sourceId]);

  const check = buildRecordSearchQuery({ ...form, kind, sourceId }, fields);

  const paged = usePagedSearch('searchRecords', run, setRun, (query) => ({ query }), readRecordPage);
  const pageData = paged.data;
  const records = useMemo(() => pageData?.items ?? [], [pageData]);

  const runFields = useMemo(() => (run ? fieldsForKind(catalogItems, run.first.kind, '') : []), [catalogItems, run]);
  const columns = useMemo(() => recordColumns(run?.first.kind ?? '', records, runFields), [run, records, runFields]);
  const openRecordData = records.find((record) => record.record_ref === openRecordRef);

  const closePanel = () => {
    openRecord(null);
    tableRef.current?.querySelector<HTMLElement>('tbody tr[tabindex="0"]')?.focus();
  };

  const problems = check.ok ? null : check.problems;
  const jurisdictionName = findJurisdiction(form.jurisdiction)?.name ?? form.jurisdiction;

  return (
    <div className="search-tab">
      <form className="search-form stack gap-3" aria-label="Record search" onSubmit={(event) => event.preventDefault()} onKeyDown={(event: KeyboardEvent) => submitOnEnter(event, runButtonRef.current)}>
        <div className="search-form__row cluster align-end gap-3">
          <div className="search-field search-field--wide">
            <label className="search-field__label" htmlFor="records-jurisdiction">
              Jurisdiction
            </label>
            <JurisdictionPicker id="records-jurisdiction" value={form.jurisdiction} onChange={(code) => updateForm({ jurisdiction: code })} />
          </div>
          <label className="search-field">
            <span className="search-field__label">Record kind</span>
            <select className="input" value={kind} onChange={(event) => updateForm({ kind: event.target.value, sourceId: '' })} disabled={kinds.length === 0}>
              <option value="">{catalog.isFetching ? 'Loading kinds…' : kinds.length === 0 ? 'No kinds here' : 'Choose a kind…'}</option>
              {kinds.map((option) => (
                <option key={option.kind} value={option.kind}>
                  {option.label} ({formatCount(option.records)})
                </option>
              ))}
            </select>
          </label>
          <label className="search-field">
            <span className="search-field__label">Source</span>
            <select className="input" value={sourceId} onChange={(event) => updateForm({ sourceId: event.target.value })} disabled={!kindOption}>
              <option value="">All sources of this kind</option>
              {kindOption?.sources.map((source) => (
                <option key={source.source_id} value={source.source_id}>
                  {source.source} — {source.dataset}
                  {isSyntheticSource(source) ? ' (synthetic)' : ''}
                </option>
              ))}
            </select>
          </label>
          <PerPageField idPrefix="records" value={form.limit} problem={problems?.limit} onChange={(limit) => updateForm({ limit })} />
        </div>
        <PerPageProblem idPrefix="records" problem={problems?.limit} />

        {catalog.isError && <ErrorNotice error={catalog.error} onRetry={() => void catalog.refetch()} />}
        {catalog.isSuccess && kinds.length === 0 && (
          <p className="notice" role="status">
            The service lists no published sources for {jurisdictionName}. Choose another jurisdiction.
          </p>
        )}

        <SearchFilters
          note={`up to ${MAX_FILTERS}, all must hold; field names as the publisher wrote them`}
          filters={form.filters}
          setFilters={(filters) => updateForm({ filters })}
          blank={blankFilterDraft}
          max={MAX_FILTERS}
          disabled={!kindOption}
          row={(draft, index, edit) => (
            <RecordFilterRow key={draft.id} draft={draft} index={index} fields={fields} problem={problems?.filters[draft.id]} onChange={edit.set} onRemove={edit.remove} />
          )}
        />

        <SearchFormActions hostRef={runButtonRef} problems={problems?.form} note="Charged per page with results; an empty result is free (the spec’s rule).">
          <PagedSearchButton
            paged={paged}
            first={check.ok ? check.query : null}
            label="Search records"
            what={`a page of ${kindOption?.label.toLowerCase() ?? 'records'} in ${jurisdictionName}`}
          />
        </SearchFormActions>
      </form>

      {run && (
        <section className="search-results stack" aria-label="Record search results">
          <PagedResultsHead paged={paged} summary={describeRun(run.first, catalogItems)} nextWhat="the next page of results" noun="records" />
          {pageData && (
            <div className={`search-results__body${openRecordData ? ' has-panel' : ''}`}>
              <div ref={tableRef} className="search-results__table">
                <DataTable
                  label={`${kindLabel(run.first.kind)} records, page ${run.page + 1}`}
                  columns={columns}
                  rows={records}
                  rowKey={(record) => record.record_ref}
                  onOpen={(record) => openRecord(record.record_ref)}
                  empty={
                    <span role="status">
                      No records match this search. {nothingFoundChargeWords(paged.page.query.data?.billing ?? {}, 'the search')} Loosen a filter or choose another kind.
                    </span>
                  }
                  toolbar={records.length > 0 ? <span className="muted">Enter or double-click a row for its full source row</span> : undefined}
                />
              </div>
              {openRecordData && <RecordPanel record={openRecordData} onClose={closePanel} />}
            </div>
          )}
        </section>
      )}
      {!run && (
        <p className="search-hint muted">
          Choose a jurisdiction and a record kind, add filters on the source’s own fields (
          {ownerField === null ? 'for example an owner name' : (
            <>
              for example <span className="mono">{ownerField}</span> equals an owner name
            </>
          )}
          ), and search. The price shows beside the button before anything is spent.
        </p>
      )}
    </div>
  );
}

/** Only a whole answer is shown; the next page's cursor is in its data, or else in its meta. */
function readRecordPage(envelope: IpcResponse<'searchRecords'>['envelope'] | undefined) {
  const data = envelope?.status === 'ok' ? envelope.data : undefined;
  return { data, nextCursor: data?.next_cursor ?? envelope?.meta.next_cursor ?? null };
}

function RecordFilterRow(props: FilterRowProps<RecordFilterDraft> & { fields: SourceFieldInfo[] }) {
  const { draft, fields } = props;
  const field = fields.find((candidate) => candidate.name === draft.field);
  const operators = operatorsFor(field?.type ?? 'unknown');
  return (
    <FilterRow
      row={props}
      idPrefix="record"
      fieldOptions={
        <>
          {/* A field typed before the kind changed stays visible, so nothing typed is lost. */}
          {draft.field !== '' && !field && <option value={draft.field}>{draft.field} (not in this kind)</option>}
          {fields.map((candidate) => (
            <option key={candidate.name} value={candidate.name} title={candidate.description ?? undefined}>
              {candidate.name}
              {candidate.type !== 'unknown' && candidate.type !== 'string' ? ` (${candidate.type})` : ''}
            </option>
          ))}
        </>
      }
      onField={(name) => {
        const next = fields.find((candidate) => candidate.name === name);
        props.onChange({ field: name, op: next && operatorsFor(next.type).includes(draft.op) ? draft.op : 'eq' });
      }}
      operators={operators.includes(draft.op) ? operators : [...operators, draft.op]}
      operatorLabel={operatorLabel}
      onOp={(op) => props.onChange({ op: op === 'gte' ? 'gte' : 'eq' })}
      type={field?.type}
      textHint="value as published"
    />
  );
}

function recordColumns(kind: string, records: V4SearchRecord[], fields: SourceFieldInfo[]): Column<V4SearchRecord>[] {
  const numeric = new Set(fields.filter((field) => field.type === 'number').map((field) => field.name));
  const dataColumns: Column<V4SearchRecord>[] = recordColumnsFor(kind, records, fields).map((field) => ({
    id: `data.${field}`,
    header: field,
    text: (record) => cellText(field, recordData(record)[field]),
    render: (record) => cellContent(cellText(field, recordData(record)[field])),
    sortValue: (record) => {
      const value = recordData(record)[field];
      return typeof value === 'number' ? value : value === null || value === undefined ? null : String(value);
    },
    align: numeric.has(field) || records.some((record) => typeof recordData(record)[field] === 'number') ? 'right' : 'left',
  }));
  return [
    ...dataColumns,
    {
      id: 'citation',
      header: 'Source',
      text: (record) => [record.citation.source, record.citation.dataset, record.citation.as_of].filter(Boolean).join(', '),
      render: (record) => <CitationChip citation={fromV4Citation(record.citation, { sourceId: record.source_id, recordRef: record.record_ref })} />,
    },
  ];
}

function describeRun(query: RecordSearchQuery, catalogItems: ReadonlyArray<{ source_id: string; source: string }>): string {
  const place = findJurisdiction(query.jurisdiction)?.name ?? query.jurisdiction;
  const parts = [`${kindLabel(query.kind)} in ${place}`];
  if (query.filter) {
    try {
      const filter = JSON.parse(query.filter) as Record<string, unknown>;
      for (const [field, value] of Object.entries(filter)) {
        if (field === '$source_id') {
          const source = catalogItems.find((item) => item.source_id === value);
          parts.push(`source ${source ? source.source : String(value)}`);
        } else if (value && typeof value === 'object' && 'gte' in value) parts.push(`${field} ≥ ${String((value as { gte: unknown }).gte)}`);
        else parts.push(`${field} = ${String(value)}`);
      }
    } catch {
      parts.push(query.filter);
    }
  }
  return parts.join(' · ');
}
