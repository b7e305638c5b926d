// The search: criteria where appraisers start, the market area (a radius, a polygon drawn on the map,
// or a ward, ZIP, cluster or assessment neighborhood picked on the map or from a list), one-click
// widening, what stops the search in words (nothing is sent, nothing charged), and the price before
// the search (a search already bought says free). The search as run is kept in the workfile; a
// further page is its own purchase at its own price, and a saved search can be re-run.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  areaLayerLabels,
  areaLayers,
  type AreaLayer,
  type CompSearchCriteria,
  type CompSearchRun,
  type ComparablesWorkfile,
  type SubjectProperty,
} from '../../../shared/comparables/model.ts';
import { comparablesRequestBody, criteriaProblems, criteriaWarnings, describeCriteria, searchWindow, widenSteps } from '../../../shared/comparables/search.ts';
import { canonicalJson } from '../../../shared/canonical-json.ts';
import { localToday } from '../../../shared/format-date.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { usePaidAnswer } from '../../platform/paid-answer.ts';
import { refreshComparables, useSalesCoverage } from '../../platform/comparables-queries.ts';
import type { IpcResponse } from '../../../shared/ipc.ts';
import type { ServiceRequestParts } from '../../platform/service-calls.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { COVERAGE_CHECKING, useCoverageGap } from '../../platform/coverage-gap.ts';
import type { CoverageGap } from '../../../shared/service/coverage-gaps.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useComparablesStore } from './comparables-store.ts';
import { AreaPicker } from './AreaPicker.tsx';
import { MAX_PAGES, addPageToCurrentSearch, answerFacts, nextPageBody, parseCriteriaNumber, recordSearch, searchRunOf, setCriteria } from './comparables-model.ts';
import './search-panel.css';
import { SelectOptions } from '../../components/SelectOptions.tsx';

export type MapMode = { kind: 'none' } | { kind: 'draw' } | { kind: 'pick'; layer: AreaLayer };

type WorkfileChange = (workfile: ComparablesWorkfile) => ComparablesWorkfile;
type Edit = (change: WorkfileChange) => void;
type AreaKind = 'radius' | 'polygon' | AreaLayer;

const areaKindLabels: Record<AreaKind, string> = {
  radius: 'Radius',
  polygon: 'Drawn on the map',
  ...areaLayerLabels,
};

const areaKindOf = (criteria: CompSearchCriteria): AreaKind => (criteria.area.kind === 'layer' ? criteria.area.layer : criteria.area.kind);

export interface SearchPanelProps {
  assignmentId: string;
  subjectRef: string;
  effectiveDate: string;
  subject: SubjectProperty | null;
  subjectUseCode: string | null;
  criteria: CompSearchCriteria;
  run: CompSearchRun | null;
  searches: CompSearchRun[];
  /** The current search's next page, when the service has more. */
  nextCursor: string | null;
  /** How many of the current search's pages the assignment keeps (fewer than the run's: re-run it). */
  pagesKept: number;
  /** Whether the subject's record is bought (when not, the view offers it above the search). */
  subjectBought: boolean;
  edit: Edit;
  mapMode: MapMode;
  onMapMode: (mode: MapMode) => void;
  onOpenAssignment: () => void;
}

export function SearchPanel(props: SearchPanelProps) {
  const { criteria, edit, subject, effectiveDate } = props;
  const { coverage } = useSalesCoverage();
  const lonLat = subject?.location?.lonLat ?? null;
  const context = { effectiveDate, subject: lonLat ? { lonLat } : null, salesCoverage: coverage, today: localToday() };
  // Without the subject's record the view offers it above; the search only says it waits for it.
  const problems = criteriaProblems(criteria, context).filter((text) => props.subjectBought || !text.startsWith('The subject has no location'));
  if (!props.subjectBought) problems.unshift('The search is centred on the subject: buy its record above first.');
  // What the catalog's coverage says the search will lack here: beside the search and in its confirmation.
  const lacking = useCoverageGap('comparables_search', props.subjectRef);
  const warnings = problems.length === 0 ? [...criteriaWarnings(criteria, context), ...(lacking && lacking !== COVERAGE_CHECKING ? [lacking.sentence] : [])] : [];
  let body: ReturnType<typeof comparablesRequestBody> | null = null;
  if (problems.length === 0) {
    try {
      body = comparablesRequestBody(props.subjectRef, criteria, effectiveDate, props.subjectUseCode, undefined, lonLat);
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  const parts = body ? ({ body } as ServiceRequestParts<'queryRecords'>) : null;
  const changed = props.run !== null && body !== null && canonicalJson(body) !== canonicalJson(props.run.pages[0]);
  const aboutDate = problems.concat(warnings).some((text) => /effective date/i.test(text));
  const setCriteriaTo = (next: CompSearchCriteria) => edit((w) => setCriteria(w, next));

  return (
    <section className="comps-search stack" aria-labelledby="comps-search-title">
      <h2 id="comps-search-title" className="visually-hidden">
        Search criteria
      </h2>
      <div className="comps-search__fields cluster align-end">
        <AreaFields criteria={criteria} onCriteria={setCriteriaTo} mapMode={props.mapMode} onMapMode={props.onMapMode} />
        <NumberField
          label="Sold within"
          unit="months"
          value={criteria.monthsBack}
          onValue={(monthsBack) => setCriteriaTo({ ...criteria, monthsBack })}
        />
        <NumberField
          label="Living area ±"
          unit="%"
          value={criteria.livingAreaBandPct}
          onValue={(livingAreaBandPct) => setCriteriaTo({ ...criteria, livingAreaBandPct })}
        />
        <div className="comps-search__checks">
          <Check label="Same property type" checked={criteria.sameUseCode} onChange={(sameUseCode) => setCriteriaTo({ ...criteria, sameUseCode })} />
          <Check label="Arm’s length only" checked={criteria.armsLengthOnly} onChange={(armsLengthOnly) => setCriteriaTo({ ...criteria, armsLengthOnly })} />
          <Check label="List undated sales" checked={criteria.includeUndated} onChange={(includeUndated) => setCriteriaTo({ ...criteria, includeUndated })} />
        </div>
        <span className="comps-spacer" />
        <SearchButton {...props} parts={parts} radiusMiles={body?.radius_miles ?? null} lacking={lacking} />
      </div>
      <div className="comps-search__widen cluster">
        <span className="muted">Widen:</span>
        {widenSteps(criteria).map((step) => (
          <button key={step.key} type="button" className="button button--small" onClick={() => setCriteriaTo(step.criteria)}>
            {step.label}
          </button>
        ))}
        <span className="muted comps-search__window">{describeCriteria(criteria, effectiveDate)[1]}</span>
        {changed && <span className="comps-search__changed">Criteria changed since the last search: search again to apply them.</span>}
      </div>
      {problems.length > 0 && (
        <div className="comps-problems-box" role="alert" data-testid="comps-search-problems">
          <p className="comps-problems-box__title">The search cannot run yet (nothing is sent or charged):</p>
          <CriteriaLines lines={problems} aboutDate={aboutDate} onOpenAssignment={props.onOpenAssignment} />
        </div>
      )}
      {warnings.length > 0 && (
        <div className="comps-warning-box" role="note">
          <CriteriaLines lines={warnings} aboutDate={aboutDate} onOpenAssignment={props.onOpenAssignment} />
        </div>
      )}
      <CurrentSearch {...props} />
    </section>
  );
}

/** What is wrong with the criteria, or worth knowing, a line each; the way to the effective date when a line is about it. */
function CriteriaLines({ lines, aboutDate, onOpenAssignment }: { lines: string[]; aboutDate: boolean; onOpenAssignment: () => void }) {
  return (
    <>
      <ul className="comps-problems">
        {lines.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
      {aboutDate && (
        <button type="button" className="button button--small" onClick={onOpenAssignment}>
          Set the effective date in the assignment
        </button>
      )}
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// Fields

function AreaFields(props: { criteria: CompSearchCriteria; onCriteria: (criteria: CompSearchCriteria) => void; mapMode: MapMode; onMapMode: (mode: MapMode) => void }) {
  const { criteria, onCriteria, mapMode, onMapMode } = props;
  // The kind being set up; the criteria change only once an area exists (a radius typed, a polygon drawn, a feature picked).
  const [kind, setKind] = useState<AreaKind>(areaKindOf(criteria));
  const [lastRadius, setLastRadius] = useState(criteria.area.kind === 'radius' ? criteria.area.radiusMiles : 0.5);
  // The criteria took another area from elsewhere (a saved search re-run): follow it.
  const actual = areaKindOf(criteria);
  const [seen, setSeen] = useState(actual);
  if (seen !== actual) {
    setSeen(actual);
    setKind(actual);
  }
  const current = criteria.area;
  const choose = (next: AreaKind) => {
    setKind(next);
    if (next === 'radius') {
      onMapMode({ kind: 'none' });
      if (current.kind !== 'radius') onCriteria({ ...criteria, area: { kind: 'radius', radiusMiles: lastRadius } });
    } else if (next === 'polygon') {
      onMapMode(current.kind === 'polygon' ? { kind: 'none' } : { kind: 'draw' });
    } else {
      onMapMode(current.kind === 'layer' && current.layer === next ? { kind: 'none' } : { kind: 'pick', layer: next });
    }
  };
  return (
    <div className="comps-search__area">
      <div className="comps-field">
        <label className="comps-field__label" htmlFor="comps-area-kind">
          Market area
        </label>
        <select id="comps-area-kind" className="input input--compact" value={kind} onChange={(event) => choose(event.target.value as AreaKind)}>
          <SelectOptions items={['radius', 'polygon', ...areaLayers] as AreaKind[]} label={(option) => areaKindLabels[option]} />
        </select>
      </div>
      {kind === 'radius' && current.kind === 'radius' && (
        <NumberField
          label="Radius"
          unit="mi"
          value={current.radiusMiles}
          onValue={(radiusMiles) => {
            setLastRadius(radiusMiles);
            onCriteria({ ...criteria, area: { kind: 'radius', radiusMiles } });
          }}
        />
      )}
      {kind === 'polygon' && (
        <div className="comps-search__area-action">
          <span className="comps-field__label">{current.kind === 'polygon' ? `Drawn: ${current.label || 'area'}` : 'No area drawn yet'}</span>
          <button
            type="button"
            className={`button button--small${mapMode.kind === 'draw' ? ' button--primary' : ''}`}
            aria-pressed={mapMode.kind === 'draw'}
            onClick={() => onMapMode(mapMode.kind === 'draw' ? { kind: 'none' } : { kind: 'draw' })}
          >
            {mapMode.kind === 'draw' ? 'Drawing on the map… (click to stop)' : current.kind === 'polygon' ? 'Redraw on the map' : 'Draw on the map'}
          </button>
        </div>
      )}
      {kind !== 'radius' && kind !== 'polygon' && (
        <AreaPicker
          layer={kind}
          picked={current.kind === 'layer' && current.layer === kind ? current : null}
          picking={mapMode.kind === 'pick' && mapMode.layer === kind}
          onPicking={(on) => onMapMode(on ? { kind: 'pick', layer: kind } : { kind: 'none' })}
          onPicked={(area) => {
            onMapMode({ kind: 'none' });
            onCriteria({ ...criteria, area: { kind: 'layer', ...area } });
          }}
        />
      )}
    </div>
  );
}

/** A number as typed: stored once it reads as a number (the criteria's own checks say if it is out of range). */
function NumberField(props: { label: string; unit: string; value: number; onValue: (value: number) => void }) {
  const [text, setText] = useState(String(props.value));
  const [shown, setShown] = useState(props.value);
  // Changed elsewhere (a widen button): show the new value.
  if (shown !== props.value) {
    setShown(props.value);
    if (parseCriteriaNumber(text) !== props.value) setText(String(props.value));
  }
  const invalid = parseCriteriaNumber(text) === null;
  return (
    <label className="comps-field comps-field--number">
      <span className="comps-field__label">
        {props.label} <span className="muted">({props.unit})</span>
      </span>
      <input
        className="input input--compact"
        inputMode="decimal"
        aria-invalid={invalid}
        title={invalid ? 'Enter a number' : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          const value = parseCriteriaNumber(event.target.value);
          if (value !== null && value !== props.value) props.onValue(value);
        }}
      />
    </label>
  );
}

function Check(props: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="comps-check">
      <input type="checkbox" checked={props.checked} onChange={(event) => props.onChange(event.target.checked)} /> {props.label}
    </label>
  );
}

// ---------------------------------------------------------------------------------------------
// Buying

/** After a purchase: the run saved in the workfile first (the core finds its kept pages by it), then everything read again. */
async function saveAndRefresh(queryClient: ReturnType<typeof useQueryClient>, assignmentId: string): Promise<void> {
  await useComparablesStore.getState().flush();
  await refreshComparables(queryClient, assignmentId);
}

/**
 * A priced search call kept with the assignment (the core asks again for an answer the session holds,
 * so the assignment keeps it too): its button, then its failure with a retry. A bought answer changes
 * the workfile as `change` says, which is then saved; no `change` yet (the form is incomplete): the
 * click buys nothing.
 */
export function SearchCharge(props: {
  parts: ServiceRequestParts<'queryRecords'> | null;
  label: string;
  what: string;
  primary?: boolean;
  change: ((answer: IpcResponse<'queryRecords'>) => WorkfileChange) | null;
  edit: Edit;
  assignmentId: string;
  /** What the catalog's coverage says the search will lack around this subject. */
  lacking?: CoverageGap | null | typeof COVERAGE_CHECKING;
}) {
  const queryClient = useQueryClient();
  const paid = usePaidAnswer('queryRecords', props.parts, { askCore: true });
  const { change } = props;
  return (
    <>
      <ChargeButton
        operation="queryRecords"
        request={props.parts}
        label={props.label}
        what={props.what}
        primary={props.primary}
        busy={paid.query.isFetching}
        lacking={props.lacking ?? null}
        onRun={(options) => {
          if (!change) return;
          void paid.buy(options).then(async (answer) => {
            if (!answer) return;
            props.edit(change(answer));
            await saveAndRefresh(queryClient, props.assignmentId);
          });
        }}
      />
      {paid.query.isError && !paid.query.isFetching && <ErrorNotice error={paid.query.error} onRetry={() => void paid.retry()} compact />}
    </>
  );
}

function SearchButton(props: SearchPanelProps & { parts: ServiceRequestParts<'queryRecords'> | null; radiusMiles: number | null; lacking: CoverageGap | null | typeof COVERAGE_CHECKING }) {
  const { parts, radiusMiles, criteria, effectiveDate, edit, assignmentId, lacking } = props;
  const change =
    parts && radiusMiles !== null
      ? (answer: IpcResponse<'queryRecords'>): WorkfileChange => {
          const body = parts.body as Record<string, unknown>;
          const run = searchRunOf({ criteria, effectiveDate, radiusMiles, body, envelope: answer.envelope, ranAt: new Date().toISOString() });
          return (w) => recordSearch(w, run);
        }
      : null;
  return (
    <div className="comps-search__buy stack align-end gap-1">
      <SearchCharge parts={parts} label="Search" what="this comparable sales search" change={change} edit={edit} assignmentId={assignmentId} lacking={lacking} />
    </div>
  );
}

function CurrentSearch(props: SearchPanelProps) {
  const { run, searches } = props;
  if (!run) return null;
  const lines = describeCriteria(run.criteria, run.effectiveDate, run);
  const period = searchWindow(run.effectiveDate, run.criteria.monthsBack);
  const earlier = searches.slice(0, -1).reverse();
  return (
    <div className="comps-search__current stack gap-1">
      <details className="comps-search__summary" data-testid="comps-current-search">
        <summary>
          <strong>Current search</strong>{' '}
          <span className="muted">
            · {lines[0]} · sold {period.fromDate} to {period.toDate} · {run.total} found, {run.returned} listed · ran {formatDateTime(run.ranAt)}
          </span>
        </summary>
        <ul className="comps-search__lines">
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </details>
      {props.pagesKept < run.pages.length && (
        <p className="comps-warning-box" role="note">
          {props.pagesKept === 0 ? 'This assignment does not hold the answer of this search' : `This assignment holds ${props.pagesKept} of the search’s ${run.pages.length} pages`}: re-run it to read
          the sales again (a search already bought is free).
        </p>
      )}
      <div className="comps-search__run-actions cluster">
        <RerunButton {...props} run={run} label="Re-run this search" />
        {props.nextCursor !== null && (
          <NextPageCharge
            run={run}
            cursor={props.nextCursor}
            label="Load the next page"
            what="the next page of this search"
            whenFull="narrow the criteria"
            add={addPageToCurrentSearch}
            edit={props.edit}
            assignmentId={props.assignmentId}
          />
        )}
      </div>
      {earlier.length > 0 && (
        <details className="comps-search__history">
          <summary>Earlier searches ({earlier.length})</summary>
          <ul>
            {earlier.map((previous) => (
              <li key={previous.id}>
                <span>
                  {formatDateTime(previous.ranAt)} · {describeCriteria(previous.criteria, previous.effectiveDate).slice(0, 2).join(' · ')} · {previous.total} found
                </span>{' '}
                <RerunButton {...props} run={previous} label="Re-run" />
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** A saved search again, exactly as it was sent (its first page): free while its answer is cached. */
function RerunButton(props: SearchPanelProps & { run: CompSearchRun; label: string }) {
  const { run, edit, assignmentId } = props;
  const parts = { body: run.pages[0] } as ServiceRequestParts<'queryRecords'>;
  return (
    <span className="comps-search__rerun">
      <SearchCharge
        parts={parts}
        label={props.label}
        what="this saved search again"
        primary={false}
        change={(answer) => (w) => recordSearch(w, searchRunOf({ ...run, body: run.pages[0]!, envelope: answer.envelope, ranAt: new Date().toISOString(), id: undefined }))}
        edit={edit}
        assignmentId={assignmentId}
      />
    </span>
  );
}

/**
 * A search's next page, priced first: bought with the first page's body and the cursor, then added to
 * the run by `add` (the comps search's current run, or the market-sales search). A run that holds
 * MAX_PAGES already says so instead (`whenFull`: what the person can do about it).
 */
export function NextPageCharge(props: {
  run: CompSearchRun;
  cursor: string;
  label: string;
  what: string;
  whenFull?: string;
  add: (workfile: ComparablesWorkfile, body: Record<string, unknown>, page: { total: number | null; returned: number }) => ComparablesWorkfile;
  edit: SearchPanelProps['edit'];
  assignmentId: string;
}) {
  const { run, cursor, add } = props;
  if (run.pages.length >= MAX_PAGES) {
    return (
      <span className="muted">
        More sales match, but a search keeps at most {MAX_PAGES} pages{props.whenFull ? `: ${props.whenFull}` : ''}.
      </span>
    );
  }
  const body = nextPageBody(run, cursor);
  return (
    <SearchCharge
      parts={{ body } as ServiceRequestParts<'queryRecords'>}
      label={props.label}
      what={props.what}
      primary={false}
      change={(answer) => {
        const facts = answerFacts(answer.envelope);
        return (w) => add(w, body, { total: facts.total, returned: facts.returned });
      }}
      edit={props.edit}
      assignmentId={props.assignmentId}
    />
  );
}
