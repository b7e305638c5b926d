// The Comparables view: the appraiser's main work for the active assignment. Search closed sales
// around the subject (price shown first; a search already bought is free), see them on the map and in
// the list, choose the comps that bracket the subject (one selection: the map, the list and the grid
// follow each other), adjust them in the URAR grid with the appraiser's rates and their regression
// support, reconcile, and export. Everything the screen shows is computed from the kept answers and
// the saved workfile by the same functions the report uses, so both say the same thing.
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Project } from '../../../shared/ipc.ts';
import type { ComparablesAnalysis, ComparablesWorkfile } from '../../../shared/comparables/model.ts';
import { analyzeComparables } from '../../../shared/comparables/analysis.ts';
import { searchOutcome } from '../../../shared/comparables/empty-words.ts';
import { mapSpecFor } from '../../../shared/comparables/map-spec.ts';
import { choosableProblem } from '../../../shared/comparables/candidates.ts';
import { takeInNeeded } from '../../../shared/comparables/screening.ts';
import { TakeInDialog, type TakeInRequest } from './TakeInDialog.tsx';
import { DeedCheck } from './DeedCheck.tsx';
import { CitationBook } from '../../../shared/cited/citation-book.ts';
import { citationText, citationView } from '../../../shared/cited/citation.ts';
import { subjectReportParts } from '../../../shared/report/document.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { canonicalJson } from '../../../shared/canonical-json.ts';
import { refreshComparables, useComparables } from '../../platform/comparables-queries.ts';
import { usePaidAnswer } from '../../platform/paid-answer.ts';
import type { ServiceRequestParts } from '../../platform/service-calls.ts';
import { useCoverageGap } from '../../platform/coverage-gap.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { CitationChip } from '../../components/CitationChip.tsx';
import { useUiStore } from '../../app/ui-store.ts';
import { useComparablesStore } from './comparables-store.ts';
import { isChosen, subjectUseCodeOf, takeInSale } from './comparables-model.ts';
import { MarketPanel } from './MarketPanel.tsx';
import { ComparablesCharts } from './ComparablesCharts.tsx';
import { analyzeMarket, type MarketAnalysis } from '../../../shared/market/analysis.ts';
import { ActiveAssignmentGate } from '../../components/ActiveAssignmentGate.tsx';
import { citationIndexOf, type CitationIndex } from './CitedCell.tsx';
// Before the panels' own stylesheets: theirs refine the view's.
import './comparables.css';
import { SearchPanel, type MapMode } from './SearchPanel.tsx';
import { CandidateList } from './CandidateList.tsx';
import { SalesGrid } from './SalesGrid.tsx';
import { RatesPanel, SupportDetails } from './RatesPanel.tsx';
import { NotUsedList } from './NotUsedList.tsx';
import { PriorSales } from './PriorSales.tsx';
import { ExportButtons } from './ExportButtons.tsx';
import { useColorScheme } from '../../platform/use-color-scheme.ts';
import { DetailsSection } from './DetailsSection.tsx';
import { SubjectCharacteristics } from './SubjectCharacteristics.tsx';
import { withSubjectChoice } from '../../../shared/comparables/subject/resolve.ts';
import { ReceivedNotice } from '../../components/ReceivedNotice.tsx';

// maplibre (and its worker) load with the view, not with the app.
const PlatMap = lazy(() => import('../../components/map/PlatMap.tsx').then((module) => ({ default: module.PlatMap })));

export function ComparablesView() {
  return (
    <ActiveAssignmentGate
      purpose="Comparable sales are searched around the active assignment’s subject and judged against its effective date."
      testId="comps-no-assignment"
      className="empty-state"
    >
      {(assignment) => <AssignmentComparables key={assignment.id} assignment={assignment} />}
    </ActiveAssignmentGate>
  );
}

function AssignmentComparables({ assignment }: { assignment: Project }) {
  const comparables = useComparables(assignment.id);
  const load = useComparablesStore((state) => state.load);
  const workfile = useComparablesStore((state) => (state.assignmentId === assignment.id ? state.workfile : null));
  const saveState = useComparablesStore((state) => state.saveState);

  useEffect(() => {
    if (comparables.data) load(assignment.id, comparables.data.workfile);
  }, [comparables.data, load, assignment.id]);

  // Saved on leaving: the view closing, or the window going away.
  useEffect(() => {
    const flush = () => void useComparablesStore.getState().flush();
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, []);

  if (comparables.isError) return <ErrorNotice error={comparables.error} onRetry={() => void comparables.refetch()} />;
  if (!comparables.data || !workfile) return <p className="muted">Reading this assignment’s comparables…</p>;
  const { receivedIn } = comparables.data;
  // A search just run is in the workfile here before the pages it bought come back with the saved
  // assignment: until then its sales are on their way, not missing ("0 returned", "not kept").
  const pagesPending = lastRunId(workfile) !== lastRunId(comparables.data.workfile) && (comparables.isFetching || saveState === 'pending' || saveState === 'saving');
  return (
    <>
      {receivedIn && (
        <ReceivedNotice receivedIn={receivedIn}>
          <p>The subject or the sales read here came in that file; re-check them from the assignment’s page.</p>
        </ReceivedNotice>
      )}
      <Workspace
        assignment={assignment}
        subjectEnvelope={comparables.data.subject}
        subjectSummary={comparables.data.summary ?? null}
        pages={comparables.data.pages}
        lotAnswers={comparables.data.lotAnswers ?? NO_LOT_ANSWERS}
        marketPages={comparables.data.marketPages ?? []}
        workfile={workfile}
        pagesPending={pagesPending}
      />
    </>
  );
}

const lastRunId = (workfile: ComparablesWorkfile): string | null => workfile.searches.at(-1)?.id ?? null;

type Analyzed = { ok: true; analysis: ComparablesAnalysis; market: MarketAnalysis } | { ok: false; message: string };

const NO_LOT_ANSWERS: unknown[] = [];

function analyze(input: { subjectEnvelope: unknown; subjectSummary: unknown; pages: unknown[]; lotAnswers: unknown[]; marketPages: unknown[]; workfile: ComparablesWorkfile; effectiveDate: string; subjectUseCode: string | null }): Analyzed {
  try {
    // One book: the market's sales cite the same sources as the search's, under the same numbers.
    const book = new CitationBook();
    const analysis = analyzeComparables(input, book);
    const market = analyzeMarket({ ...input, compsPages: input.pages }, book);
    return { ok: true, analysis: { ...analysis, citations: [...analysis.citations, ...market.citations.filter((c) => !analysis.citations.some((a) => a.id === c.id))] }, market };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

function Workspace(props: { assignment: Project; subjectEnvelope: unknown; subjectSummary: unknown; pages: unknown[]; lotAnswers: unknown[]; marketPages: unknown[]; workfile: ComparablesWorkfile; pagesPending: boolean }) {
  const { assignment, subjectEnvelope, subjectSummary, pages, lotAnswers, marketPages, workfile, pagesPending } = props;
  const details = assignment.assignment!;
  const openAssignment = useUiStore((state) => state.openAssignment);
  const edit = useComparablesStore((state) => state.edit);
  const toggle = useComparablesStore((state) => state.toggle);
  const highlight = useComparablesStore((state) => state.highlight);
  const highlightedId = useComparablesStore((state) => state.highlightedId);
  const notice = useComparablesStore((state) => state.notice);
  const theme = useColorScheme();
  const [mapMode, setMapMode] = useState<MapMode>({ kind: 'none' });
  const [confirming, setConfirming] = useState<{ id: string; address: string; problem: string } | null>(null);
  const [takingIn, setTakingIn] = useState<TakeInRequest | null>(null);

  const subjectUseCode = useMemo(() => subjectUseCodeOf(subjectEnvelope), [subjectEnvelope]);
  const analyzed = useMemo(
    () => analyze({ subjectEnvelope, subjectSummary, pages, lotAnswers, marketPages, workfile, effectiveDate: details.effectiveDate, subjectUseCode }),
    [subjectEnvelope, subjectSummary, pages, lotAnswers, marketPages, workfile, details.effectiveDate, subjectUseCode],
  );
  const analysis = analyzed.ok ? analyzed.analysis : null;
  const index = useMemo(() => citationIndexOf(analysis?.citations ?? []), [analysis]);
  const spec = useMemo(() => {
    if (!analysis) return null;
    const drawn = mapSpecFor(analysis, workfile);
    // An area drawn or picked but not searched yet is shown, so the appraiser sees what the next search covers.
    const pending = workfile.criteria.area;
    return pending.kind !== 'radius' && canonicalJson(pending) !== canonicalJson(analysis.run?.criteria.area ?? null) ? { ...drawn, area: pending } : drawn;
  }, [analysis, workfile]);
  const candidates = useMemo(() => new Map((analysis?.set.candidates ?? []).map((candidate) => [candidate.id, candidate])), [analysis]);
  const runCriteria = analysis?.run?.criteria ?? workfile.criteria;

  // Choosing a sale that does not fit asks first, with the reason; dropping never does.
  const requestToggle = useCallback(
    (id: string) => {
      const current = useComparablesStore.getState().workfile;
      const candidate = candidates.get(id);
      if (current && candidate && !isChosen(current, id)) {
        // A sale Plat screened out is chosen only with the appraiser's written reason.
        const screens = takeInNeeded(candidate, current);
        if (screens !== null) {
          setTakingIn({ id, address: candidate.address, screens });
          return;
        }
        const problem = choosableProblem(candidate, runCriteria);
        if (problem) {
          setConfirming({ id, address: candidate.address, problem });
          return;
        }
      }
      toggle(id);
    },
    [candidates, runCriteria, toggle],
  );

  // Escape stops picking an area (the map's drawing mode keeps Escape for starting the outline over).
  useEffect(() => {
    if (mapMode.kind !== 'pick') return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMapMode({ kind: 'none' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mapMode.kind]);

  const subject = analysis?.set.subject ?? null;
  return (
    <div className="comps stack gap-3" data-testid="comparables">
      <Header assignment={assignment} />
      {subjectEnvelope === null && <SubjectMissing assignmentId={assignment.id} subjectRef={details.subjectRef} label={details.subjectLabel} />}
      {subjectEnvelope !== null && (
        <SubjectCharacteristics
          subject={subjectEnvelope}
          summary={subjectSummary}
          effectiveDate={details.effectiveDate}
          subjectChoices={workfile.subjectChoices}
          onChoose={({ key, choice }) => edit((w) => withSubjectChoice(w, key, choice && { ...choice, at: new Date().toISOString() }))}
        />
      )}
      {!analyzed.ok && (
        <div className="notice notice--error" role="alert">
          <p>
            <strong>The kept answers could not be read.</strong> {analyzed.message}
          </p>
          <p>Re-run the search to read the sales again; the workfile (criteria, comps, rates) is kept as it is.</p>
        </div>
      )}
      <SearchPanel
        assignmentId={assignment.id}
        subjectRef={details.subjectRef}
        effectiveDate={details.effectiveDate}
        subject={subject}
        subjectUseCode={subjectUseCode}
        criteria={workfile.criteria}
        run={workfile.searches.at(-1) ?? null}
        searches={workfile.searches}
        nextCursor={analysis?.set.nextCursor ?? null}
        pagesKept={pages.length}
        subjectBought={subjectEnvelope !== null}
        edit={edit}
        mapMode={mapMode}
        onMapMode={setMapMode}
        onOpenAssignment={() => openAssignment(assignment.id)}
      />
      {notice && (
        <p className="comps-notice" role="status">
          {notice}
        </p>
      )}
      {pagesPending ? (
        <p className="comps-notice muted" role="status" data-testid="comps-pages-pending">
          Reading the sales this search bought…
        </p>
      ) : (
        analysis?.problems.map((problem) => (
          <p key={problem} className="comps-notice" role="note">
            {problem}
          </p>
        ))
      )}
      {analysis && spec && (
        <>
          <div className="comps-split">
            <section className="comps-map" aria-label="Comparables map">
              <Suspense fallback={<p className="muted comps-map__loading">Loading the map…</p>}>
                <PlatMap
                  spec={spec}
                  theme={theme}
                  className="comps-map__canvas"
                  onTogglePoint={requestToggle}
                  highlightedId={highlightedId}
                  pickLayer={mapMode.kind === 'pick' ? mapMode.layer : null}
                  onAreaPicked={(area) => {
                    setMapMode({ kind: 'none' });
                    edit((w) => ({ ...w, criteria: { ...w.criteria, area: { kind: 'layer', ...area } } }));
                  }}
                  drawing={mapMode.kind === 'draw'}
                  onPolygonDrawn={(polygon) => {
                    setMapMode({ kind: 'none' });
                    edit((w) => ({ ...w, criteria: { ...w.criteria, area: { kind: 'polygon', label: 'Drawn market area', polygon } } }));
                  }}
                />
              </Suspense>
            </section>
            {pagesPending ? (
              <p className="muted comps-candidates" role="status">
                Reading the sales this search bought…
              </p>
            ) : (
              <CandidateList set={analysis.set} outcome={searchOutcome(analysis.run, analysis.set.candidates.length, pagesPending)} chosen={workfile.chosen} highlightedId={highlightedId} index={index} onToggle={requestToggle} onHighlight={highlight} />
            )}
          </div>
          {!pagesPending && <DeedCheck assignmentId={assignment.id} sale={highlightedId === null ? null : (candidates.get(highlightedId) ?? null)} index={index} />}
          {analyzed.ok && (
            <MarketPanel
              market={analyzed.market}
              workfile={workfile}
              index={index}
              edit={edit}
              assignmentId={assignment.id}
              assignmentName={assignment.name}
              subjectRef={details.subjectRef}
              effectiveDate={details.effectiveDate}
              subjectUseCode={subjectUseCode}
              subjectLonLat={subject?.location?.lonLat ?? null}
            />
          )}
          <RatesPanel workfile={workfile} support={analysis.support} outcome={searchOutcome(analysis.run, analysis.set.candidates.length, pagesPending)} edit={edit} cited={analysis.cited} index={index} />
          <SalesGrid
            analysis={analysis}
            outcome={searchOutcome(analysis.run, analysis.set.candidates.length, pagesPending)}
            workfile={workfile}
            index={index}
            edit={edit}
            onDrop={toggle}
            onHighlight={highlight}
            exports={<ExportButtons analysis={analysis} market={analyzed.ok ? analyzed.market : null} assignment={assignment} />}
          />
          <ComparablesCharts analysis={analysis} workfile={workfile} index={index} />
          <SupportDetails support={analysis.support} outcome={searchOutcome(analysis.run, analysis.set.candidates.length, pagesPending)} index={index} />
          <NotUsedList entries={analysis.notUsed} outcome={searchOutcome(analysis.run, analysis.set.candidates.length, pagesPending)} index={index} edit={edit} onToggle={requestToggle} />
          <PriorSales analysis={analysis} index={index} />
          <Sources index={index} />
        </>
      )}
      <TakeInDialog
        request={takingIn}
        onCancel={() => setTakingIn(null)}
        onTakeIn={(reason) => {
          if (takingIn) edit((w) => takeInSale(w, takingIn.id, reason, new Date().toISOString()).workfile);
          setTakingIn(null);
        }}
      />
      <ConfirmDialog
        open={confirming !== null}
        title={`Choose ${confirming?.address ?? 'this sale'}?`}
        tone="primary"
        confirmLabel="Choose it anyway"
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) toggle(confirming.id);
          setConfirming(null);
        }}
      >
        <p>{confirming?.problem}</p>
        <p className="muted">It goes into the grid flagged as it is; say why you used it in the reconciliation comment.</p>
      </ConfirmDialog>
    </div>
  );
}

function Header({ assignment }: { assignment: Project }) {
  const openAssignment = useUiStore((state) => state.openAssignment);
  const openView = useUiStore((state) => state.openView);
  const details = assignment.assignment!;
  return (
    <header className="view-head">
      <div className="comps-head__facts">
        <h2 className="comps-head__subject">{details.subjectLabel || details.subjectRef}</h2>
        <p className="view-head__meta muted">
          {assignment.name !== details.subjectLabel && `${assignment.name} · `}effective {details.effectiveDate} · <SaveState />
        </p>
      </div>
      <div className="view-head__actions">
        <button type="button" className="button" onClick={() => openAssignment(assignment.id)}>
          Open the assignment
        </button>
        <button type="button" className="button" onClick={() => openView('report')}>
          Open the report
        </button>
      </div>
    </header>
  );
}

function SaveState() {
  const saveState = useComparablesStore((state) => state.saveState);
  const savedAt = useComparablesStore((state) => state.savedAt);
  const saveError = useComparablesStore((state) => state.saveError);
  const flush = useComparablesStore((state) => state.flush);
  if (saveState === 'failed') {
    return (
      <span className="comps-save comps-save--failed" role="alert">
        Not saved: {saveError instanceof Error ? saveError.message : 'the core refused the workfile'}{' '}
        <button type="button" className="link-button link-button--underlined" onClick={() => void flush()}>
          Try again
        </button>
      </span>
    );
  }
  return (
    <span className="comps-save" data-testid="comps-save-state" aria-live="polite">
      {saveState === 'saved' ? (savedAt ? `Saved ${formatDateTime(savedAt)}` : 'Nothing to save yet') : saveState === 'saving' ? 'Saving…' : 'Changes not saved yet'}
    </span>
  );
}

/** The subject's record is the grid's subject column and the search's centre: offered with its price. */
function SubjectMissing({ assignmentId, subjectRef, label }: { assignmentId: string; subjectRef: string; label: string }) {
  const queryClient = useQueryClient();
  // The same request the Report view buys it with: one answer, bought once.
  const parts = subjectReportParts(subjectRef) as ServiceRequestParts<'queryRecords'>;
  const paid = usePaidAnswer('queryRecords', parts, { askCore: true });
  const lacking = useCoverageGap('subject_report', subjectRef);
  const refresh = () => void refreshComparables(queryClient, assignmentId);
  return (
    <section className="notice notice--warning comps-subject-missing" aria-labelledby="comps-subject-missing-title" data-testid="comps-subject-missing">
      <h2 id="comps-subject-missing-title">The subject’s record is not bought yet</h2>
      <p>
        The search is centred on the subject’s location, the living-area band on its size, and the grid’s subject column on its characteristics: all from the
        subject report of {label || subjectRef}. It is bought once and kept with this assignment.
      </p>
      <ChargeButton
        operation="queryRecords"
        request={parts}
        label="Buy the subject report"
        what="the subject report"
        busy={paid.query.isFetching}
        lacking={lacking}
        onRun={(options) => void paid.buy(options).finally(refresh)}
      />
      {paid.query.isError && !paid.query.isFetching && <ErrorNotice error={paid.query.error} onRetry={() => void paid.retry().finally(refresh)} compact />}
    </section>
  );
}

/** The numbered sources the chips refer to, in full. */
function Sources({ index }: { index: CitationIndex }) {
  const entries = [...index.values()];
  if (entries.length === 0) return null;
  return (
    <DetailsSection title="Sources" summary={<>{entries.length} cited on this page: the numbers on the values</>}>
      <ol className="comps-sources">
        {entries.map((entry) => (
          <li key={entry.citation.id} value={entry.number}>
            <CitationChip citation={citationView(entry.citation)} marker={String(entry.number)} /> {citationText(entry.citation)}
          </li>
        ))}
      </ol>
    </DetailsSection>
  );
}
