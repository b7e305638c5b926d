// Resolve tab: paste addresses, SSLs, Alexandria account numbers or MAR ids, one per line; each
// line's scheme is detected (and can be changed); lines that cannot be sent say why and get outcome
// invalid_input, the rest are resolved in one priced call (v2 resolutions). A candidate opens its entity.
// Results stay with the lines they answered: once the text is edited they say they are the earlier
// text's. A line with more candidates than the first page says how many exist and offers the rest, priced.
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import type { IpcResponse } from '../../../shared/ipc.ts';
import type { V2ResolutionResult } from '../../../shared/service/index.ts';
import { useUiStore } from '../../app/ui-store.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import type { CallOptions } from '../../platform/service-calls.ts';
import { buyAnswer, paidAnswerQuery } from '../../platform/paid-answer.ts';
import { propertyAreas } from './property-search.ts';
import {
  buildResolveBatch,
  identifierSchemes,
  identityText,
  isIdentifierScheme,
  linesWithMore,
  MAX_RESOLVE_LINES,
  MORE_CANDIDATES_LIMIT,
  moreCandidatesBody,
  outcomeRowsOf,
  parseResolveLines,
  runMatchesLines,
  schemeLabel,
  type LineWithMore,
  type MoreCandidates,
  type OutcomeRow,
  type ResolveLine,
} from './resolve-lines.ts';
import { useSearchStore, type ResolveRun } from './search-store.ts';
import { usePaidAnswer } from '../../platform/paid-answer.ts';
import { SelectOptions } from '../../components/SelectOptions.tsx';

const stopRowKeys = (event: KeyboardEvent) => event.stopPropagation();

type ResolveAnswer = IpcResponse<'resolveEntities'>;
type MoreRequest = { body: NonNullable<ReturnType<typeof moreCandidatesBody>> };

/** Further candidate pages as one value (a module function, so TanStack combines again only when a page changes). */
function combineMorePages(pages: ReadonlyArray<{ data: unknown; isError: boolean; error: unknown; isFetching: boolean }>) {
  return {
    // skipToken leaves the data type open: these keys only ever hold resolveEntities answers.
    answers: pages.map((page) => page.data as ResolveAnswer | undefined),
    failure: pages.find((page) => page.isError)?.error,
    busy: pages.some((page) => page.isFetching),
  };
}

/** A pasted line as a cell: long text wraps anywhere instead of pushing the other columns off-screen. */
const lineCell = (value: string) => <span className="mono resolve-line">{value}</span>;

/** Both tables start with the line's number and the pasted line. */
function pastedLineColumns<R extends { lineNumber: number; value: string }>(lineWidth: string): Column<R>[] {
  return [
    { id: 'n', header: '#', text: (row) => String(row.lineNumber), sortValue: (row) => row.lineNumber, align: 'right', width: '3em' },
    { id: 'value', header: 'Line', text: (row) => row.value, render: (row) => lineCell(row.value), width: lineWidth },
  ];
}

export function ResolveTab() {
  const text = useSearchStore((state) => state.resolve.text);
  const areaUid = useSearchStore((state) => state.resolve.areaUid);
  const chosenSchemes = useSearchStore((state) => state.resolve.chosenSchemes);
  const run = useSearchStore((state) => state.resolve.run);
  const updateResolve = useSearchStore((state) => state.updateResolve);
  const chooseScheme = useSearchStore((state) => state.chooseScheme);
  const setRun = useSearchStore((state) => state.setResolveRun);
  const openEntity = useUiStore((state) => state.openEntity);
  const actionsRef = useRef<HTMLDivElement>(null);
  const resultsRef = useRef<HTMLElement>(null);

  const lines = useMemo(() => parseResolveLines(text, chosenSchemes), [text, chosenSchemes]);
  const batch = useMemo(() => buildResolveBatch(lines, areaUid), [lines, areaUid]);
  const request = batch.body ? { body: batch.body } : null;

  const resolution = usePaidAnswer('resolveEntities', run ? { body: run.body } : null);
  const envelope = resolution.query.data?.envelope;
  const results = envelope && envelope.status !== 'error' ? envelope.data.items : undefined;
  const busy = resolution.query.fetchStatus === 'fetching';

  // Further candidate pages bought for the current run's lines: client_id → cursors asked, in order.
  // Tied to the run they belong to, so a new run starts with none.
  const queryClient = useQueryClient();
  const [asked, setAsked] = useState<{ run: ResolveRun | null; cursors: Record<string, string[]> }>({ run: null, cursors: {} });
  const askedCursors = useMemo(() => (asked.run === run ? asked.cursors : {}), [asked, run]);
  const moreRequests = useMemo(() => {
    const requests: Array<{ clientId: string; request: MoreRequest }> = [];
    if (!run) return requests;
    for (const [clientId, cursors] of Object.entries(askedCursors)) {
      for (const cursor of cursors) {
        const body = moreCandidatesBody(run, clientId, cursor);
        if (body) requests.push({ clientId, request: { body } });
      }
    }
    return requests;
  }, [run, askedCursors]);
  const morePages = useQueries({
    queries: moreRequests.map(({ request }) => paidAnswerQuery('resolveEntities', request)),
    combine: combineMorePages,
  });
  const moreAnswers = morePages.answers;
  const more = useMemo(() => {
    const byLine: Record<string, V2ResolutionResult[]> = {};
    moreRequests.forEach(({ clientId }, index) => {
      const answer = moreAnswers[index]?.envelope;
      const result = answer && answer.status !== 'error' ? answer.data.items.find((item) => item.client_id === clientId) : undefined;
      if (result) (byLine[clientId] ??= []).push(result);
    });
    return byLine as MoreCandidates;
  }, [moreRequests, moreAnswers]);
  const withMore = useMemo(() => (run ? linesWithMore(run, results, more) : []), [run, results, more]);
  const buyMore = (line: LineWithMore, options: CallOptions) => {
    if (!run) return;
    const body = moreCandidatesBody(run, line.clientId, line.cursor);
    if (!body) return;
    setAsked({ run, cursors: { ...askedCursors, [line.clientId]: [...(askedCursors[line.clientId] ?? []), line.cursor] } });
    void buyAnswer(queryClient, 'resolveEntities', { body }, options);
  };

  const outcomeRows = useMemo(() => (run ? outcomeRowsOf(run, results, more) : []), [run, results, more]);
  // The text was edited (or the area changed) since these results were bought.
  const stale = run !== null && !runMatchesLines(run, lines, areaUid);

  const lineColumns = useMemo<Column<ResolveLine>[]>(
    () => [
      ...pastedLineColumns<ResolveLine>('40%'),
      {
        id: 'scheme',
        header: 'Scheme',
        width: '16em',
        text: (line) => schemeLabel[line.scheme],
        render: (line) => (
          <select
            className="input input--compact resolve-scheme"
            aria-label={`Scheme of line ${line.lineNumber}`}
            value={line.scheme}
            onKeyDown={stopRowKeys}
            onChange={(event) => {
              const scheme = event.target.value;
              if (isIdentifierScheme(scheme)) chooseScheme(line.value, scheme);
            }}
          >
            {identifierSchemes.map((scheme) => (
              <option key={scheme} value={scheme}>
                {schemeLabel[scheme]}
                {scheme === line.scheme && !line.schemeChosen ? ' (detected)' : ''}
              </option>
            ))}
          </select>
        ),
      },
      {
        id: 'check',
        header: 'Check',
        text: (line) => line.problem ?? 'Ready',
        render: (line) =>
          line.problem ? <span className="search-problem">Will not be sent: {line.problem}</span> : <span className="muted">Ready</span>,
      },
    ],
    [chooseScheme],
  );

  const outcomeColumns = useMemo<Column<OutcomeRow>[]>(
    () => [
      ...pastedLineColumns<OutcomeRow>('16%'),
      {
        id: 'outcome',
        header: 'Outcome',
        width: '11%',
        text: (row) => (row.reason ? `${row.outcome}: ${row.reason}` : row.outcome),
        render: (row) => (
          <span className={`outcome outcome--${row.outcome === 'invalid_input' ? 'invalid' : row.candidateCount > 0 ? 'found' : 'none'}`}>
            <span className="mono">{row.outcome}</span>
            {row.reason && <span className="outcome__reason">{row.reason}</span>}
          </span>
        ),
      },
      {
        id: 'open',
        header: 'Open',
        width: '5.5em',
        text: (row) => row.candidate?.entity_ref ?? '',
        render: (row) =>
          row.candidate ? (
            <button
              type="button"
              className="button button--small"
              onKeyDown={stopRowKeys}
              onClick={() => row.candidate && openEntity(row.candidate.entity_ref)}
              aria-label={`Open ${row.candidate.entity_kind.replace(/_/g, ' ')} for line ${row.lineNumber}`}
            >
              Open
            </button>
          ) : null,
      },
      {
        id: 'candidate',
        header: 'Candidate',
        width: '17%',
        text: (row) => (row.candidate ? identityText(row.candidate.canonical_identity) || row.candidate.entity_ref : ''),
        render: (row) =>
          row.candidate ? (
            <span>
              {identityText(row.candidate.canonical_identity) || <span className="mono">{row.candidate.entity_ref}</span>}
              {row.candidateCount > 1 && <span className="muted">
                  {' '}
                  ({row.candidateIndex + 1} of {row.candidateCount})
                </span>}
            </span>
          ) : (
            <span className="muted">No candidate</span>
          ),
      },
      { id: 'kind', header: 'Kind', text: (row) => row.candidate?.entity_kind.replace(/_/g, ' ') ?? '', width: '7%' },
      { id: 'basis', header: 'Match basis', text: (row) => row.candidate?.match_basis ?? '' },
      { id: 'precision', header: 'Precision', text: (row) => row.candidate?.precision ?? '' },
      { id: 'method', header: 'Method', text: (row) => row.candidate?.method ?? '' },
    ],
    [openEntity],
  );

  const sendable = batch.sent.length;
  const startRun = (options: { confirmed?: boolean }) => {
    if (!batch.body) return;
    const next: ResolveRun = {
      body: batch.body,
      areaUid,
      lines: lines.map((line) => ({
        lineNumber: line.lineNumber,
        clientId: line.clientId,
        value: line.value,
        scheme: line.scheme,
        refusedReason: batch.refused.find((refused) => refused.line === line)?.reason ?? null,
      })),
    };
    setRun(next);
    void resolution.buy(options, { body: batch.body });
    // The outcomes appear under the pasted lines: bring them into view.
    window.requestAnimationFrame(() => resultsRef.current?.scrollIntoView({ block: 'start' }));
  };

  return (
    <div className="search-tab">
      <form
        className="search-form stack gap-3"
        aria-label="Resolve identifiers"
        onSubmit={(event) => event.preventDefault()}
        onKeyDown={(event) => {
          // Ctrl/⌘+Enter in the text area resolves (plain Enter adds a line).
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            const button = actionsRef.current?.querySelector<HTMLButtonElement>('button');
            if (button && !button.disabled) button.click();
          }
        }}
      >
        <div className="resolve-input">
          <label className="search-field resolve-input__text">
            <span className="search-field__label">Lines to resolve, one per line</span>
            <textarea
              className="input resolve-input__area"
              value={text}
              rows={6}
              spellCheck={false}
              placeholder={'1716 21ST ST NW\n0150 0295\n13195000'}
              onChange={(event) => updateResolve({ text: event.target.value })}
              aria-describedby="resolve-help"
            />
          </label>
          <div className="resolve-input__side stack">
            <label className="search-field">
              <span className="search-field__label">Area</span>
              <select className="input" value={areaUid} onChange={(event) => updateResolve({ areaUid: event.target.value })}>
                <option value="">Any area</option>
                <SelectOptions items={propertyAreas} value={(area) => area.areaUid} label={(area) => area.label} />
              </select>
            </label>
            <p className="muted" id="resolve-help">
              Addresses, DC SSLs (<span className="mono">0150 0295</span>), Alexandria account numbers (8 digits), DC MAR ids or entity ids. Up to {MAX_RESOLVE_LINES} lines; Ctrl+Enter resolves.
            </p>
          </div>
        </div>

        {lines.length > 0 && (
          <div className="resolve-table">
            <DataTable label="Lines to resolve" columns={lineColumns} rows={lines} rowKey={(line) => line.clientId} />
          </div>
        )}

        <div className="search-form__actions cluster gap-3" ref={actionsRef}>
          <ChargeButton
            operation="resolveEntities"
            request={request}
            label={sendable > 0 ? `Resolve ${sendable} ${sendable === 1 ? 'line' : 'lines'}` : 'Resolve'}
            what={`resolving ${sendable} ${sendable === 1 ? 'line' : 'lines'}`}
            busy={busy}
            onRun={startRun}
          />
          <span className="muted search-form__note">Charged per line that finds a match; lines that cannot be sent are never charged.</span>
          {lines.length > 0 && sendable === 0 && (
            <span className="search-problem" role="status">
              No line can be sent: fix the lines marked above.
            </span>
          )}
        </div>
      </form>

      {run && (
        <section className="search-results stack" aria-label="Resolution results" ref={resultsRef}>
          {stale && (
            <div className="notice notice--warning resolve-stale stack" role="status" data-testid="resolve-stale">
              <p>
                <strong>These results are for the earlier text.</strong> The lines have been edited since they were resolved, so the line numbers
                and lines below are the ones that were sent, not the ones above.
              </p>
              <details>
                <summary>The {run.lines.length === 1 ? 'line' : `${run.lines.length} lines`} these results answer</summary>
                <ol className="resolve-stale__lines">
                  {run.lines.map((line) => (
                    <li key={line.clientId} value={line.lineNumber}>
                      {lineCell(line.value)}
                    </li>
                  ))}
                </ol>
              </details>
              <div className="resolve-stale__again">
                <ChargeButton
                  operation="resolveEntities"
                  request={request}
                  label="Resolve the current text"
                  what={`resolving the ${sendable} ${sendable === 1 ? 'line' : 'lines'} now in the text`}
                  busy={busy}
                  primary={false}
                  onRun={startRun}
                />
              </div>
            </div>
          )}
          {resolution.query.isError && <ErrorNotice error={resolution.query.error} onRetry={resolution.retry} />}
          {busy && (
            <p className="muted" role="status">
              Resolving…
            </p>
          )}
          {envelope?.status === 'partial' && (
            <p className="notice notice--warning" role="status">
              Some lines could not be resolved by the service{envelope.meta.warnings?.length ? `: ${envelope.meta.warnings.join('; ')}` : '.'}
            </p>
          )}
          {(results || run.body.items.length === 0 || resolution.query.isError) && (
            <div className="resolve-table">
              <DataTable
                label={stale ? 'Resolution outcomes for the earlier text' : 'Resolution outcomes'}
                columns={outcomeColumns}
                rows={outcomeRows}
                rowKey={(row) => row.key}
                onOpen={(row) => row.candidate && openEntity(row.candidate.entity_ref)}
                toolbar={<span className="muted">Enter on a row with a candidate opens it</span>}
              />
            </div>
          )}
          {morePages.failure !== undefined && <ErrorNotice error={morePages.failure} />}
          {withMore.length > 0 && (
            <ul className="resolve-more stack gap-1" aria-label="Lines with more candidates">
              {withMore.map((line) => {
                const body = moreCandidatesBody(run, line.clientId, line.cursor);
                const next = Math.min(line.total - line.shown, MORE_CANDIDATES_LIMIT);
                return (
                <li key={line.clientId}>
                  <span>
                    Line {line.lineNumber}: <strong>{line.shown}</strong> of <strong>{line.total}</strong> candidates shown.
                  </span>{' '}
                  <ChargeButton
                    operation="resolveEntities"
                    request={body ? { body } : null}
                    label={`Show ${next} more`}
                    what={`the next ${next} candidates of line ${line.lineNumber}`}
                    busy={morePages.busy}
                    primary={false}
                    onRun={(options) => buyMore(line, options)}
                  />
                </li>
                );
              })}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
