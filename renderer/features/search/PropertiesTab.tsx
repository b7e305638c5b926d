// Properties tab: v2 property search within one area, with filters on property fields, a sort and a
// projection, paged by cursor. Pages are charged when they hold results, so each is fetched only by
// a click on its priced button. A row opens the property's entity page.
import { useMemo, useRef, type KeyboardEvent } from 'react';
import type { IpcResponse } from '../../../shared/ipc.ts';
import type { V2EntitySummary, V2FilterOperator } from '../../../shared/service/index.ts';
import { useUiStore } from '../../app/ui-store.ts';
import { CitationChip } from '../../components/CitationChip.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { cellContent, PagedResultsHead, PagedSearchButton, usePagedSearch } from './PageBar.tsx';
import {
  buildPropertySearchBody,
  describePropertyRun,
  propertyAreas,
  propertyColumnLabel,
  propertyColumnsFor,
  propertyFieldInfo,
  propertyFields,
  propertyOperatorLabel,
  propertyOperatorsFor,
  propertyRowView,
  type PropertyFilterDraft,
  type PropertyRowView,
} from './property-search.ts';
import { cellText } from './record-search.ts';
import { blankFilterDraft, useSearchStore } from './search-store.ts';
import { SearchFilters, SearchFormActions } from './SearchFormParts.tsx';
import { submitOnEnter } from './submit-on-enter.ts';
import { FilterRow, type FilterRowProps } from './FilterRow.tsx';
import { PerPageField, PerPageProblem } from './PerPageField.tsx';
import { SelectOptions } from '../../components/SelectOptions.tsx';
import { nothingFoundChargeWords } from '../../components/charge-words.ts';

interface PropertyRow extends PropertyRowView {
  item: V2EntitySummary;
}

/** What a property search returns per row, as the form offers it. */
const projections = [
  ['identity_summary', 'Identity'],
  ['fact_summary', 'Facts'],
] as const;

export function PropertiesTab() {
  const form = useSearchStore((state) => state.properties.form);
  const run = useSearchStore((state) => state.properties.run);
  const updateForm = useSearchStore((state) => state.updatePropertiesForm);
  const setRun = useSearchStore((state) => state.setPropertiesRun);
  const openEntity = useUiStore((state) => state.openEntity);
  const actionsRef = useRef<HTMLDivElement>(null);

  const check = buildPropertySearchBody(form);
  const problems = check.ok ? null : check.problems;

  const paged = usePagedSearch('searchProperties', run, setRun, (body) => ({ body }), readPropertyPage);
  const { envelope, data: pageData } = paged;
  const provenance = envelope?.provenance?.sources;

  const rows = useMemo<PropertyRow[]>(
    () => (pageData?.items ?? []).map((item) => ({ item, ...propertyRowView(item, provenance) })),
    [pageData, provenance],
  );
  const columns = useMemo(() => propertyColumns(rows), [rows]);

  const areaLabel = propertyAreas.find((area) => area.areaUid === form.areaUid)?.label ?? form.areaUid;

  return (
    <div className="search-tab">
      <form className="search-form stack gap-3" aria-label="Property search" onSubmit={(event) => event.preventDefault()} onKeyDown={(event: KeyboardEvent) => submitOnEnter(event, actionsRef.current)}>
        <div className="search-form__row cluster align-end gap-3">
          <label className="search-field">
            <span className="search-field__label">Area</span>
            <select className="input" value={form.areaUid} onChange={(event) => updateForm({ areaUid: event.target.value })}>
              <SelectOptions items={propertyAreas} value={(area) => area.areaUid} label={(area) => area.label} />
            </select>
          </label>
          <label className="search-field">
            <span className="search-field__label">Sort by</span>
            <select className="input" value={form.sortField} onChange={(event) => updateForm({ sortField: event.target.value })}>
              <option value="">Service order</option>
              <SelectOptions items={propertyFields} value={(info) => info.field} label={(info) => info.label} />
            </select>
          </label>
          <label className="search-field search-field--medium">
            <span className="search-field__label">Direction</span>
            <select
              className="input"
              value={form.sortDirection}
              disabled={form.sortField === ''}
              onChange={(event) => updateForm({ sortDirection: event.target.value === 'desc' ? 'desc' : 'asc' })}
            >
              <option value="asc">Ascending</option>
              <option value="desc">Descending</option>
            </select>
          </label>
          <fieldset className="search-field search-choice">
            <legend className="search-field__label">Projection</legend>
            <div className="search-choice__options">
              {projections.map(([projection, label]) => (
                <label key={projection}>
                  <input type="radio" name="property-projection" checked={form.projection === projection} onChange={() => updateForm({ projection })} />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          <PerPageField idPrefix="properties" value={form.limit} problem={problems?.limit} onChange={(limit) => updateForm({ limit })} />
        </div>
        <PerPageProblem idPrefix="properties" problem={problems?.limit} />

        <SearchFilters
          note="all must hold"
          filters={form.filters}
          setFilters={(filters) => updateForm({ filters })}
          blank={blankFilterDraft}
          max={20}
          row={(draft, index, edit) => (
            <PropertyFilterRow key={draft.id} draft={draft} index={index} problem={problems?.filters[draft.id]} onChange={edit.set} onRemove={edit.remove} />
          )}
        />

        <SearchFormActions hostRef={actionsRef} problems={problems?.form}>
          <PagedSearchButton paged={paged} first={check.ok ? check.body : null} label="Search properties" what={`a page of properties in ${areaLabel}`} />
        </SearchFormActions>
      </form>

      {run && (
        <section className="search-results stack" aria-label="Property search results">
          <PagedResultsHead paged={paged} summary={describePropertyRun(run.first)} nextWhat="the next page of properties" noun="properties" />
          {envelope?.status === 'partial' && (
            <p className="notice notice--warning" role="status">
              The service answered only in part{envelope.meta.warnings?.length ? `: ${envelope.meta.warnings.join('; ')}` : '.'}
            </p>
          )}
          {pageData && (
            <DataTable
              label={`Properties, page ${run.page + 1}`}
              columns={columns}
              rows={rows}
              rowKey={(row) => row.item.entity_ref}
              onOpen={(row) => openEntity(row.item.entity_ref)}
              empty={
                <span role="status">
                  No properties match. {nothingFoundChargeWords(paged.page.query.data?.billing ?? {}, 'the search')} Loosen a filter.
                </span>
              }
              toolbar={rows.length > 0 ? <span className="muted">Enter or double-click a row to open the property</span> : undefined}
            />
          )}
        </section>
      )}
      {!run && (
        <p className="search-hint muted">
          Search the properties of one area by their facts, for example owner name contains a word, or assessed value at least an amount. Facts adds the property’s values to each row.
        </p>
      )}
    </div>
  );
}

function PropertyFilterRow(props: FilterRowProps<PropertyFilterDraft>) {
  const { draft } = props;
  const info = propertyFieldInfo(draft.field);
  return (
    <FilterRow
      row={props}
      idPrefix="property"
      fieldOptions={<SelectOptions items={propertyFields} value={(candidate) => candidate.field} label={(candidate) => candidate.label} />}
      onField={(field) => {
        const allowed = propertyOperatorsFor(propertyFieldInfo(field)?.type ?? 'text');
        props.onChange({ field, op: allowed.includes(draft.op) ? draft.op : (allowed[0] ?? 'eq') });
      }}
      operators={propertyOperatorsFor(info?.type ?? 'text')}
      operatorLabel={propertyOperatorLabel}
      onOp={(op) => props.onChange({ op: op as V2FilterOperator })}
      type={info?.type}
      textHint="text"
    />
  );
}

/** A partial answer still lists what it found; the next page's cursor is in the answer's meta. */
function readPropertyPage(envelope: IpcResponse<'searchProperties'>['envelope'] | undefined) {
  return { data: envelope && envelope.status !== 'error' ? envelope.data : undefined, nextCursor: envelope?.meta.next_cursor ?? null };
}

const DOLLAR_KEYS = /_dollars$/;

function columnText(row: PropertyRow, key: string): string {
  const value = row.values[key];
  // Whole-dollar facts read better as money; cellText formats its known dollar columns so.
  return typeof value === 'number' && DOLLAR_KEYS.test(key) ? cellText('PRICE', value) : cellText(key, value);
}

function propertyColumns(rows: PropertyRow[]): Column<PropertyRow>[] {
  const keys = propertyColumnsFor(rows.map((row) => row.values));
  const columns: Column<PropertyRow>[] = keys.map((key) => ({
    id: key,
    header: propertyColumnLabel(key),
    text: (row) => columnText(row, key),
    render: (row) => {
      const text = columnText(row, key);
      return row.syntheticKeys.includes(key) && text !== '' ? (
        <span className="synthetic-value" title="Synthetic: made up for Plat’s sample, not a public record">
          {text}
        </span>
      ) : (
        cellContent(text)
      );
    },
    sortValue: (row) => {
      const value = row.values[key];
      return typeof value === 'number' ? value : value === null || value === undefined ? null : String(value);
    },
    align: rows.some((row) => typeof row.values[key] === 'number') ? 'right' : 'left',
  }));
  if (rows.some((row) => row.citations.length > 0)) {
    columns.push({
      id: 'sources',
      header: 'Sources',
      text: (row) => row.citations.map((citation) => [citation.publisher, citation.dataset, citation.asOf].filter(Boolean).join(', ')).join('; '),
      render: (row) => (
        <span className="search-chips">
          {row.citations.map((citation, index) => (
            <CitationChip key={`${citation.sourceId ?? citation.publisher}-${index}`} citation={citation} />
          ))}
        </span>
      ),
    });
  }
  return columns;
}

