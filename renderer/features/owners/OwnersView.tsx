// Owners: type part of an owner's name and see every holding published under a matching name, as a
// portfolio grouped by owner (OwnerPortfolio.tsx), each holding openable on the entity page and each
// owner on its own page. The search is priced per page, so it runs only from the button (or Enter),
// with the price shown beside it; pages already bought stay in the query cache and showing them
// again is free.
import { useId, useMemo, useRef, useState, type FormEvent, type RefObject } from 'react';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { useCostPreview } from '../../platform/cost-preview.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import type { CallOptions } from '../../platform/service-calls.ts';
import { usePaidAnswer } from '../../platform/paid-answer.ts';
import { useOwnerCoverage, type OwnerCoverageAnswer } from '../../components/owner-coverage.ts';
import {
  describeOwnerQuery,
  ownerCoverageRequest,
  ownerNameProblem,
  ownerSearchBody,
  OWNER_NAME_MAX,
  type OwnerCoverage,
} from '../../components/owner-lookup.ts';
import { useOwnersUi, type OwnerSearch } from './owners-ui-store.ts';
import { PortfolioResults, spellingNote } from './OwnerPortfolio.tsx';
import './owners.css';
import { SelectOptions } from '../../components/SelectOptions.tsx';
import { useEnterToCharge, useSettled } from '../../components/typed-search.ts';

const DEBOUNCE_MS = 350;

/** While the coverage is being read, a line saying so; its priced button when it may cost; a failure to read it, with a retry. */
export function CoverageReading({ coverage }: { coverage: OwnerCoverageAnswer }) {
  return (
    <>
      {coverage.isPending && coverage.fetchStatus === 'idle' && (
        <div className="buy-prompt">
          <span className="muted">Owner names are searched only in the areas whose records publish them: the service’s coverage says which. </span>
          <ChargeButton
            operation="getCatalogFacet"
            request={ownerCoverageRequest}
            label="Read the coverage"
            what="the service’s coverage of owner names"
            primary={false}
            onRun={coverage.read}
          />
        </div>
      )}
      {coverage.isPending && coverage.fetchStatus !== 'idle' && (
        <p className="muted" role="status">
          Finding which areas publish owner names…
        </p>
      )}
      {coverage.isError && <ErrorNotice error={coverage.error} onRetry={coverage.refetch} />}
    </>
  );
}

export function OwnersView() {
  const coverage = useOwnerCoverage();
  // The options of the user's last search action, so "Try again" repeats it as it was confirmed.
  const lastOptionsRef = useRef<CallOptions>({});
  const [openedAt] = useState(() => Date.now());

  return (
    <div className="owners stack gap-3">
      <CoverageReading coverage={coverage} />
      {coverage.data && <OwnerSearchForm coverage={coverage.data} lastOptionsRef={lastOptionsRef} />}
      <OwnerResults lastOptionsRef={lastOptionsRef} openedAt={openedAt} />
    </div>
  );
}

function OwnerSearchForm({ coverage, lastOptionsRef }: { coverage: OwnerCoverage; lastOptionsRef: { current: CallOptions } }) {
  const draft = useOwnersUi((state) => state.draft);
  const setDraft = useOwnersUi((state) => state.setDraft);
  const chosenArea = useOwnersUi((state) => state.areaUid);
  const setArea = useOwnersUi((state) => state.setArea);
  const submit = useOwnersUi((state) => state.submit);
  const [typed, flush] = useSettled(draft, DEBOUNCE_MS);
  const [attempted, setAttempted] = useState(false);
  const buttonHost = useRef<HTMLSpanElement>(null);
  const inputId = useId();
  const areaId = useId();
  const hintId = useId();

  const area = coverage.searchable.find((candidate) => candidate.areaUid === chosenArea) ?? coverage.searchable[0] ?? null;
  const problem = ownerNameProblem(typed);
  const draftProblem = ownerNameProblem(draft);
  const areaUid = area?.areaUid ?? null;
  const request = useMemo(() => (areaUid !== null && !problem ? { body: ownerSearchBody(areaUid, typed) } : null), [areaUid, problem, typed]);
  // The same key as the ChargeButton's own preview, so this reads it rather than asking again.
  const preview = useCostPreview('searchProperties', request);
  const search = usePaidAnswer('searchProperties', request);
  const searching = search.query.isFetching;

  const run = (options: CallOptions) => {
    if (!area || !request) return;
    const asked: OwnerSearch = { name: typed.trim(), areaUid: area.areaUid };
    lastOptionsRef.current = options;
    submit(asked);
    void search.buy(options);
  };

  // Enter goes through the same button as a click (price, confirmation, caps), once the price of
  // exactly what was typed is known.
  const pressSearch = () => buttonHost.current?.querySelector<HTMLButtonElement>('button')?.click();
  const enterSearches = useEnterToCharge({ typed: draft, settled: typed, flush, request, price: preview.data, press: pressSearch });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (draftProblem) return;
    enterSearches();
  };

  const showProblem = draftProblem !== null && (attempted || draft.trim() !== '');
  if (!area) {
    return (
      <div className="notice" role="status">
        <strong>No area publishes owner names.</strong> The service’s coverage lists no area whose records carry owner names, so there is
        nothing to search.
        <CoverageNotes coverage={coverage} />
      </div>
    );
  }

  return (
    <form className="owners__form stack gap-1" onSubmit={onSubmit} aria-label="Owner search">
      <div className="owners__fields cluster align-end gap-3">
        <div className="owners__field owners__field--name">
          <label htmlFor={inputId}>Owner name contains</label>
          <input
            id={inputId}
            type="search"
            value={draft}
            maxLength={OWNER_NAME_MAX * 2}
            placeholder="e.g. smith, or “john smith”"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={showProblem}
            aria-describedby={hintId}
            onChange={(event) => setDraft(event.target.value)}
          />
        </div>
        <div className="owners__field">
          <label htmlFor={areaId}>Area</label>
          {coverage.searchable.length > 1 ? (
            <select id={areaId} value={area.areaUid} onChange={(event) => setArea(event.target.value)}>
              <SelectOptions items={coverage.searchable} value={(candidate) => candidate.areaUid} label={(candidate) => candidate.name} />
            </select>
          ) : (
            <output id={areaId} className="owners__area">
              {area.name}
            </output>
          )}
        </div>
        <span className="owners__action" ref={buttonHost}>
          <ChargeButton
            operation="searchProperties"
            request={request}
            label="Search owners"
            what={`the owner search for “${typed.trim()}”${spellingNote(typed)}`}
            busy={searching}
            onRun={run}
          />
        </span>
      </div>
      <p id={hintId} className={showProblem ? 'owners__problem' : 'muted owners__hint'} role={showProblem ? 'alert' : undefined}>
        {showProblem
          ? `${draftProblem} Nothing is priced or charged until it can be searched.`
          : 'Any part of the name, in any case and word order; accents are ignored (Ü finds U and UE). Enter searches. Each page of up to 50 holdings is priced on the button before it is bought.'}
      </p>
      {!draftProblem && (
        <p className="owners__query" data-testid="owner-query" aria-live="polite">
          {describeOwnerQuery(draft)}
        </p>
      )}
      <CoverageNotes coverage={coverage} />
    </form>
  );
}

function CoverageNotes({ coverage }: { coverage: OwnerCoverage }) {
  return (
    <details className="owners__coverage">
      <summary>Where owner names come from, and where the sample has none</summary>
      <ul>
        {coverage.searchable.map((candidate) => (
          <li key={candidate.areaUid}>
            <strong>{candidate.name}:</strong> {candidate.note || 'owner names published.'}
            {!candidate.areaGiven && ` The service’s coverage names it by its jurisdiction code ${candidate.areaUid}, not an area id: the search names that code.`}
          </li>
        ))}
        {coverage.without.map((place) => (
          <li key={place.name}>
            <strong>{place.name}:</strong> {place.note || 'no owner names.'}
          </li>
        ))}
      </ul>
    </details>
  );
}

// ---------------------------------------------------------------------------------------------
// Results

function OwnerResults({ lastOptionsRef, openedAt }: { lastOptionsRef: RefObject<CallOptions>; openedAt: number }) {
  const submitted = useOwnersUi((state) => state.submitted);
  if (!submitted) {
    return (
      <p className="muted owners__intro">
        Owner names are shown exactly as the publisher printed them. Results are grouped by that name, and each holding opens its parcel or unit;
        each owner name opens that owner’s page.
      </p>
    );
  }
  return <PortfolioResults search={submitted} openedAt={openedAt} lastOptions={lastOptionsRef} />;
}
