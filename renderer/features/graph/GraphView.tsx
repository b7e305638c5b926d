// The Graph view: parcels, accounts, addresses, units and owners around one root (the active
// assignment's subject, any entity opened with "graph", or one typed here), and why each is linked.
// The root's links come from v2 relationships and v4 connected entities (free), its record names its
// owner; an owner's other holdings come from the owner-name search (priced, shown before the click).
// Expanding a node adds only its new neighbours. The same graph is a table beside the drawing, a
// parcel's runsheet is a tab, and the researcher's confirm/cut decisions are kept with the assignment
// and drawn on the links.
import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Project } from '../../../shared/ipc.ts';
import { applyDecisions, type GraphDecision, type GraphDecisionKind } from '../../../shared/graph/decisions.ts';
import { graphSpec } from '../../../shared/graph/graph-view.ts';
import { graphNodeKindLabels, type GraphNodeKind } from '../../../shared/graph/graph-spec.ts';
import { nodeName } from '../../../shared/graph/links.ts';
import { relationLabel } from '../../../shared/graph/relations.ts';
import { relationshipPredicates, type RelationshipPredicate } from '../../../shared/service/common.ts';
import { CitationBook } from '../../../shared/report/citation-book.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { useUiStore } from '../../app/ui-store.ts';
import { activeAssignment } from '../../components/ActiveAssignmentGate.tsx';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { CostTag } from '../../components/CostTag.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ownerCoverage, ownerCoverageRequest } from '../../components/owner-lookup.ts';
import { envelopeData } from '../../components/service-data.ts';
import { useProjects } from '../../platform/core-queries.ts';
import { paidAnswerQuery, usePaidAnswer } from '../../platform/paid-answer.ts';
import {
  advanceGraph,
  decisionLabels,
  describeRequest,
  expansionRequests,
  filterOptions,
  graphAnswerOf,
  graphTable,
  nextPageRequest,
  parcelOf,
  parcelsOf,
  readRoot,
  runsheetParcel,
  rootRequests,
  specFilters,
  uniqueRequests,
  type GraphRequest,
  type GraphRoot,
  type MergedGraph,
  type TraversalSettings,
} from './graph-model.ts';
import { allFree, buyGraphRequest, saveGraphDecision, useGraphAnswers, useGraphDecisions, type HeldRequest } from './graph-queries.ts';
import { useGraphStore, type GraphSelection, type GraphTab } from './graph-store.ts';
import { DecisionDialog, type DecisionRequest } from './DecisionDialog.tsx';
import { GraphTable } from './GraphTable.tsx';
import { LinkPanel } from './LinkPanel.tsx';
import { NodePanel } from './NodePanel.tsx';
import { RunsheetPanel } from './RunsheetPanel.tsx';
import { useColorScheme } from '../../platform/use-color-scheme.ts';
import './graph-view.css';

// cytoscape (and its layouts) load with the drawing, not with the app.
const EntityGraph = lazy(() => import('../../components/graph/EntityGraph.tsx').then((module) => ({ default: module.EntityGraph })));

export function GraphView() {
  const projects = useProjects();
  const assignment = activeAssignment(projects.data);
  const opened = useUiStore((state) => state.graphRootId);
  const rootText = opened ?? assignment?.assignment?.subjectRef ?? null;
  if (opened === null && projects.isError) return <ErrorNotice error={projects.error} onRetry={() => void projects.refetch()} />;
  if (opened === null && projects.isPending) return <p className="muted">Loading the active assignment…</p>;
  return <GraphWorkspace key={rootText ?? 'no-root'} rootText={rootText} assignment={assignment} />;
}

function GraphWorkspace({ rootText, assignment }: { rootText: string | null; assignment: Project | null }) {
  const read = rootText === null ? null : readRoot(rootText);
  const root = read?.ok ? read.root : null;
  return (
    <div className="graph-view" data-testid="graph-view">
      <GraphHeader rootText={rootText} assignment={assignment} />
      {read && !read.ok && (
        <p className="notice notice--error" role="alert">
          {read.problem}
        </p>
      )}
      {rootText === null && (
        <div className="empty-state graph-empty">
          <h2>Draw a graph</h2>
          <p>
            No assignment is active, so there is no subject to start from. Type an entity id or an owner name above, or make an assignment active: its
            subject is drawn here, and the links you confirm or cut are kept with it.
          </p>
        </div>
      )}
      {root && <RootGraph root={root} assignment={assignment} />}
    </div>
  );
}

function GraphHeader({ rootText, assignment }: { rootText: string | null; assignment: Project | null }) {
  const openGraph = useUiStore((state) => state.openGraph);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { input: useId(), problem: useId() };
  const subject = assignment?.assignment ?? null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const read = readRoot(text);
    if (!read.ok) {
      setProblem(read.problem);
      return;
    }
    setProblem(null);
    openGraph(read.root.kind === 'owner' ? `owner:${read.root.name}` : read.root.id);
  };
  return (
    <header className="view-head">
      <div className="graph-head__facts">
        {subject ? (
          <p className="view-head__meta muted">
            Assignment <strong>{assignment?.name}</strong> · subject {subject.subjectLabel || subject.subjectRef}
            {rootText !== null && rootText !== subject.subjectRef && ' · drawn from another entity'}
          </p>
        ) : (
          <p className="view-head__meta muted">No assignment is active: links can be read, not confirmed or cut.</p>
        )}
      </div>
      <form className="view-head__actions" onSubmit={submit} role="search" aria-label="Draw the graph from">
        <label htmlFor={ids.input}>Draw from</label>
        <input
          id={ids.input}
          className="input input--compact graph-head__input"
          value={text}
          placeholder="prop_…, parc_…, acct_… or an owner name"
          onChange={(event) => setText(event.target.value)}
          aria-invalid={problem !== null}
          aria-describedby={problem ? ids.problem : undefined}
        />
        <button type="submit" className="button">
          Draw
        </button>
        {subject && rootText !== subject.subjectRef && (
          <button type="button" className="button" onClick={() => openGraph(subject.subjectRef)}>
            Back to the subject
          </button>
        )}
        {problem && (
          <span id={ids.problem} className="graph-head__problem" role="alert">
            {problem}
          </span>
        )}
      </form>
    </header>
  );
}

/** The areas whose rolls publish owner names (a free catalog answer): owner names are searched in one of them. */
function useOwnerArea(rootArea: string | null): { areaUid: string | null; areas: Array<{ areaUid: string; name: string }>; loading: boolean } {
  const coverage = usePaidAnswer('getCatalogFacet', ownerCoverageRequest, { loadWhenFree: true });
  const chosen = useGraphStore((state) => state.ownerAreaUid);
  const areas = useMemo(() => {
    const data = coverage.query.data;
    if (!data) return [];
    try {
      return ownerCoverage(envelopeData(data.envelope)).searchable;
    } catch {
      return [];
    }
  }, [coverage.query.data]);
  // The area picked here, else the one the owner was opened in (an owner page's), else the first.
  const areaUid = areas.find((area) => area.areaUid === (chosen ?? rootArea))?.areaUid ?? areas[0]?.areaUid ?? null;
  return { areaUid, areas, loading: coverage.query.isPending };
}

function RootGraph({ root, assignment }: { root: GraphRoot; assignment: Project | null }) {
  const queryClient = useQueryClient();
  const theme = useColorScheme();
  const openEntity = useUiStore((state) => state.openEntity);
  const openOwner = useUiStore((state) => state.openOwner);
  const openGraph = useUiStore((state) => state.openGraph);
  const settings = useGraphStore((state) => state.settings);
  const hiddenKinds = useGraphStore((state) => state.hiddenKinds);
  const hiddenRelations = useGraphStore((state) => state.hiddenRelations);
  const tab = useGraphStore((state) => state.tab);
  const setTab = useGraphStore((state) => state.setTab);
  const selection = useGraphStore((state) => state.selection);
  const select = useGraphStore((state) => state.select);
  const addRequests = useGraphStore((state) => state.addRequests);
  const added = useGraphStore((state) => state.added[root.id]);
  const owners = useOwnerArea(root.kind === 'owner' ? root.areaUid : null);
  const [announcement, setAnnouncement] = useState('');
  const [deciding, setDeciding] = useState<DecisionRequest | null>(null);
  const [withdrawing, setWithdrawing] = useState(false);
  const [decisionFailure, setDecisionFailure] = useState<unknown>(null);
  const expandRef = useRef<HTMLSpanElement>(null);

  // A new root starts with nothing selected.
  useEffect(() => select(null), [root.id, select]);

  const requests = useMemo(() => uniqueRequests([...rootRequests(root, settings, owners.areaUid), ...(added ?? [])]), [root, settings, owners.areaUid, added]);
  const held = useGraphAnswers(requests, assignment?.id ?? null);
  const answers = held.flatMap((entry) => (entry.answer.data ? [{ key: entry.request.key, answer: graphAnswerOf(entry.request, entry.answer.data.envelope) }] : []));
  const answersKey = answers.map((entry) => entry.key).join('\n');
  // Merged as answers arrive: an expansion's answer is merged into the model drawn, adding only what is new.
  const [merger] = useState(() => new GraphMerger());
  const current = useMemo(
    () => merger.advance(root.id, answers),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the answers are the same while their keys are
    [answersKey, root.id, merger],
  );
  const { model } = current;

  // Said once per merge that added entities after the first drawing.
  const lastAdded = useRef<string[] | null>(null);
  useEffect(() => {
    if (lastAdded.current !== null && current.added !== lastAdded.current && current.added.length > 0) {
      setAnnouncement(`${current.added.length} new ${current.added.length === 1 ? 'entity' : 'entities'} drawn.`);
    }
    lastAdded.current = current.added;
  }, [current.added]);

  const filters = useMemo(() => specFilters(hiddenKinds, hiddenRelations, model), [hiddenKinds, hiddenRelations, model]);
  const view = useMemo(() => graphSpec(model, filters), [model, filters]);
  const decisionsQuery = useGraphDecisions(assignment?.id ?? null);
  const decisions = useMemo(() => decisionsQuery.data?.decisions ?? [], [decisionsQuery.data]);
  const decided = useMemo(() => applyDecisions(view.spec, decisions), [view.spec, decisions]);
  const table = useMemo(() => {
    const book = new CitationBook();
    return { ...graphTable(model, view, decisions, book.cite), citations: book.all() };
  }, [model, view, decisions]);
  const options = useMemo(() => filterOptions(view, model), [view, model]);
  const drawn = model.entities.size > 0 || model.owners.size > 0;

  const selectedNode = selection?.type === 'node' ? selection.id : null;
  const selectedLink = selection?.type === 'link' ? selection.id : null;
  const asked = useMemo(() => new Set(requests.map((request) => request.key)), [requests]);
  // Further pages this session already holds (an owner's pages loaded on the owner's page) are drawn too: they cost nothing.
  useEffect(() => {
    const heldPages = held.flatMap((entry) => {
      const next = entry.answer.data ? nextPageRequest(entry.request, entry.answer.data.envelope) : null;
      return next && !asked.has(next.key) && queryClient.getQueryData(paidAnswerQuery(next.operation, next.parts as never).queryKey) !== undefined ? [next] : [];
    });
    if (heldPages.length > 0) addRequests(root.id, heldPages);
  });
  const expansionOf = (id: string): GraphRequest[] => {
    const node = view.spec.nodes.find((candidate) => candidate.id === id);
    if (!node?.expandable) return [];
    return expansionRequests(model, id, settings, owners.areaUid).filter((request) => !asked.has(request.key));
  };
  const expansion = selectedNode ? expansionOf(selectedNode) : [];
  const expanding = held.some((entry) => entry.answer.isFetching && added?.some((request) => request.key === entry.request.key));

  const runExpansion = (requestsToAdd: GraphRequest[], options: Parameters<typeof buyGraphRequest>[2]) => {
    addRequests(root.id, requestsToAdd);
    const [first] = requestsToAdd;
    if (first) void buyGraphRequest(queryClient, first, options);
  };

  // Enter (or a double click) on a node: free expansions run at once; a priced one waits, its price and button focused.
  const expandFromGraph = (id: string) => {
    select({ type: 'node', id });
    const wanted = expansionOf(id);
    const name = view.spec.nodes.find((node) => node.id === id)?.label ?? id;
    if (wanted.length === 0) {
      setAnnouncement(`Every link of ${name} is drawn.`);
      return;
    }
    void allFree(queryClient, wanted).then((free) => {
      if (free) {
        addRequests(root.id, wanted);
        setAnnouncement(`Asking for more links of ${name}: free.`);
      } else {
        setAnnouncement(`Showing more of ${name} has a price: its button is focused.`);
        setTab(tab === 'runsheet' ? 'drawing' : tab);
        window.setTimeout(() => expandRef.current?.querySelector('button')?.focus(), 0);
      }
    });
  };

  const decide = async (decision: GraphDecisionKind, note: string) => {
    if (!assignment || !deciding) return;
    await saveGraphDecision(queryClient, assignment.id, deciding.edgeKey, { decision, note });
    setAnnouncement(`Link ${decision === 'cut' ? 'cut' : 'confirmed'}; the decision is kept with the assignment.`);
    setDeciding(null);
  };
  const withdraw = async (edgeKey: string) => {
    if (!assignment) return;
    setWithdrawing(true);
    setDecisionFailure(null);
    try {
      await saveGraphDecision(queryClient, assignment.id, edgeKey, null);
      setAnnouncement('Decision withdrawn.');
    } catch (error) {
      setDecisionFailure(error);
    } finally {
      setWithdrawing(false);
    }
  };

  const linkTitles = useMemo(() => {
    const labels = new Map(view.spec.nodes.map((node) => [node.id, node.label]));
    return new Map(view.links.map((link) => [link.key, `${labels.get(link.source) ?? link.source} — ${link.label} → ${labels.get(link.target) ?? link.target}`]));
  }, [view]);
  const decisionOf = (key: string): GraphDecision | null => decisions.find((decision) => decision.edgeKey === key) ?? null;
  const cannotDecide = assignment ? null : 'Decisions are kept with an assignment: make one active to confirm or cut links.';
  const parcels = useMemo(() => parcelsOf(model), [model]);
  // A parcel chosen for the runsheet holds until something else is selected.
  const [chosen, setChosen] = useState<{ parcelId: string; under: GraphSelection } | null>(null);
  const chooseParcel = (parcelId: string | null) => setChosen(parcelId === null ? null : { parcelId, under: useGraphStore.getState().selection });
  const chosenParcel = chosen !== null && chosen.under === selection && parcels.some((parcel) => parcel.id === chosen.parcelId) ? chosen.parcelId : null;
  const sheetParcel = chosenParcel ?? runsheetParcel(model, view.links, selection);
  const rootName = drawn ? nodeName(model, root.id).label : root.kind === 'owner' ? root.name : root.id;

  return (
    <>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      <h2 className="graph-root">
        Drawn from <span className="graph-root__name">{rootName}</span>{' '}
        <span className="muted graph-root__kind">{drawn ? (view.spec.nodes.find((node) => node.root)?.sublabel ?? '') : root.kind === 'owner' ? 'Owner' : ''}</span>
      </h2>
      {root.kind === 'entity' ? <TraversalControls settings={settings} /> : <OwnerAreaControl areas={owners.areas} areaUid={owners.areaUid} loading={owners.loading} />}
      <Sources held={held} model={model} rootId={root.id} asked={asked} />
      <GraphStatus caps={view.caps} notes={view.notes} problems={current.problems} cutOff={decided.cutOff.map((id) => view.spec.nodes.find((node) => node.id === id)?.label ?? id)} />
      {decisionsQuery.isError && <ErrorNotice error={decisionsQuery.error} onRetry={() => void decisionsQuery.refetch()} compact />}
      {decisionFailure !== null && <ErrorNotice error={decisionFailure} compact />}
      {!drawn ? (
        <EmptyGraph root={root} held={held} areaUid={owners.areaUid} areasLoading={owners.loading} rootName={rootName} />
      ) : (
        <>
          <Filters kinds={options.kinds} relations={options.relations} />
          <GraphTabs tab={tab} onChange={setTab} />
          {/* Escape anywhere in the drawing, table or panel puts the selection down (a dialog's Escape is its own). */}
          <div
            className="graph-main"
            onKeyDown={(event) => {
              if (event.key !== 'Escape' || event.defaultPrevented || (event.target as Element).closest('dialog')) return;
              select(null);
            }}
          >
            <div className="graph-main__tab" role="tabpanel" id={`graph-panel-${tab}`} aria-labelledby={`graph-tab-${tab}`}>
              {tab === 'drawing' && (
                <Suspense fallback={<p className="muted graph-main__loading">Loading the drawing…</p>}>
                  <EntityGraph
                    spec={decided.spec}
                    theme={theme}
                    selectedId={selection?.id ?? null}
                    className="graph-main__canvas"
                    onSelectNode={(id) => select({ type: 'node', id })}
                    onSelectEdge={(id) => select({ type: 'link', id })}
                    onExpandNode={expandFromGraph}
                  />
                </Suspense>
              )}
              {tab === 'table' && (
                <GraphTable
                  nodes={table.nodes}
                  links={table.links}
                  citations={table.citations}
                  onOpenNode={(id) => select({ type: 'node', id })}
                  onOpenLink={(key) => select({ type: 'link', id: key })}
                />
              )}
              {tab === 'runsheet' &&
                (sheetParcel ? (
                  <RunsheetPanel model={model} parcelId={sheetParcel} parcels={parcels} onChooseParcel={chooseParcel} assignmentName={assignment?.name ?? null} />
                ) : (
                  <p className="muted graph-main__hint">The graph holds no parcel yet: a runsheet is a parcel’s. Expand a property, account or unit to reach its parcel.</p>
                ))}
            </div>
            <aside className="graph-side" aria-label="Selected in the graph">
              {selectedLink ? (
                <LinkPanel
                  model={model}
                  links={view.links}
                  linkKey={selectedLink}
                  decision={decisionOf(selectedLink)}
                  cannotDecide={cannotDecide}
                  onDecide={setDeciding}
                  onWithdraw={(key) => void withdraw(key)}
                  withdrawing={withdrawing}
                />
              ) : selectedNode ? (
                <NodePanel
                  model={model}
                  view={view}
                  nodeId={selectedNode}
                  expansion={expansion}
                  expansionNote={selectedNode.startsWith('owner:') && owners.areaUid === null ? 'Owner names cannot be searched: the service lists no area whose rolls publish them.' : null}
                  expanding={expanding}
                  onExpand={(options) => runExpansion(expansion, options)}
                  onSelectLink={(key) => select({ type: 'link', id: key })}
                  onOpenPage={(id) => (id.startsWith('owner:') ? openOwner(nodeName(model, id).label, owners.areaUid) : openEntity(id))}
                  onMakeRoot={(id) => openGraph(id.startsWith('owner:') ? `owner:${owners.areaUid ?? ''}/${nodeName(model, id).label}` : id)}
                  onRunsheet={
                    parcelOf(model, selectedNode)
                      ? () => {
                          chooseParcel(parcelOf(model, selectedNode));
                          setTab('runsheet');
                        }
                      : null
                  }
                  expandRef={expandRef}
                />
              ) : (
                <SelectionHint decisions={decisions} titles={linkTitles} onShow={(key) => select({ type: 'link', id: key })} hasAssignment={assignment !== null} />
              )}
            </aside>
          </div>
        </>
      )}
      <DecisionDialog request={deciding} onSave={decide} onClose={() => setDeciding(null)} />
    </>
  );
}

function SelectionHint(props: { decisions: GraphDecision[]; titles: ReadonlyMap<string, string>; onShow: (key: string) => void; hasAssignment: boolean }) {
  const { decisions, titles } = props;
  return (
    <section className="graph-panel graph-panel--hint">
      <h3>Select a link or an entity</h3>
      <p>
        Click a link, or move through the entities with the arrow keys, step through a node’s links with E and press Space: the link’s rule, its records and their
        sources are shown here, and you can confirm or cut it. Enter shows more of a node’s links (free ones at once; a priced one shows its price first). Escape
        puts the selection down.
      </p>
      {props.hasAssignment && (
        <div className="graph-panel__block" data-testid="graph-decisions">
          <h4>Your decisions in this assignment</h4>
          {decisions.length === 0 ? (
            <p className="muted">None yet.</p>
          ) : (
            <ul className="graph-records">
              {decisions.map((decision) => {
                const title = titles.get(decision.edgeKey);
                return (
                  <li key={decision.edgeKey}>
                    <strong className={`graph-decided graph-decided--${decision.decision}`}>{decisionLabels[decision.decision]}</strong>{' '}
                    {title ? (
                      <button type="button" className="link-button link-button--underlined" onClick={() => props.onShow(decision.edgeKey)}>
                        {title}
                      </button>
                    ) : (
                      <span>
                        a link not drawn in this graph <span className="mono graph-records__ref">{decision.edgeKey}</span>
                      </span>
                    )}{' '}
                    <span className="muted">
                      by you on {formatDateTime(decision.at)}: {decision.note}
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

/** The model merged so far for one view: each call merges only the answers that arrived since the last. */
class GraphMerger {
  #last: MergedGraph | null = null;
  advance(rootId: string, answers: Parameters<typeof advanceGraph>[2]): MergedGraph {
    this.#last = advanceGraph(this.#last, rootId, answers);
    return this.#last;
  }
}

// ---------------------------------------------------------------------------------------------
// Controls

const DEPTHS = [1, 2, 3] as const;
const CAPS = [25, 50, 100, 200] as const;
const DIRECTIONS: Array<{ value: TraversalSettings['direction']; label: string }> = [
  { value: 'both', label: 'Both ways' },
  { value: 'out', label: 'Outward' },
  { value: 'in', label: 'Inward' },
];

function TraversalControls({ settings }: { settings: TraversalSettings }) {
  const setSettings = useGraphStore((state) => state.setSettings);
  const ids = { depth: useId(), direction: useId(), nodes: useId(), edges: useId() };
  const asked = settings.predicates ?? [...relationshipPredicates];
  const togglePredicate = (predicate: RelationshipPredicate) => {
    const next = asked.includes(predicate) ? asked.filter((p) => p !== predicate) : [...asked, predicate];
    // Asking for none would draw nothing: the last one stays.
    if (next.length === 0) return;
    setSettings({ predicates: next.length === relationshipPredicates.length ? null : relationshipPredicates.filter((p) => next.includes(p)) });
  };
  return (
    <details className="graph-controls">
      <summary>
        Traversal: {settings.depth} {settings.depth === 1 ? 'step' : 'steps'}, {DIRECTIONS.find((d) => d.value === settings.direction)?.label.toLowerCase()},{' '}
        {settings.predicates === null ? 'every relation' : `${settings.predicates.length} of ${relationshipPredicates.length} relations`}, up to {settings.maxNodes} entities and{' '}
        {settings.maxEdges} links
      </summary>
      <div className="graph-controls__body">
        <label htmlFor={ids.depth}>Depth</label>
        <select id={ids.depth} className="input input--compact" value={settings.depth} onChange={(event) => setSettings({ depth: Number(event.target.value) as TraversalSettings['depth'] })}>
          {DEPTHS.map((depth) => (
            <option key={depth} value={depth}>
              {depth === 1 ? '1 link' : `up to ${depth} links`}
            </option>
          ))}
        </select>
        <label htmlFor={ids.direction}>Direction</label>
        <select id={ids.direction} className="input input--compact" value={settings.direction} onChange={(event) => setSettings({ direction: event.target.value as TraversalSettings['direction'] })}>
          {DIRECTIONS.map((direction) => (
            <option key={direction.value} value={direction.value}>
              {direction.label}
            </option>
          ))}
        </select>
        <label htmlFor={ids.nodes}>Entities at most</label>
        <select id={ids.nodes} className="input input--compact" value={settings.maxNodes} onChange={(event) => setSettings({ maxNodes: Number(event.target.value) })}>
          {CAPS.map((cap) => (
            <option key={cap} value={cap}>
              {cap}
            </option>
          ))}
        </select>
        <label htmlFor={ids.edges}>Links at most</label>
        <select id={ids.edges} className="input input--compact" value={settings.maxEdges} onChange={(event) => setSettings({ maxEdges: Number(event.target.value) })}>
          {CAPS.map((cap) => (
            <option key={cap} value={cap}>
              {cap}
            </option>
          ))}
        </select>
        <fieldset className="graph-controls__relations">
          <legend>Relations asked for</legend>
          {relationshipPredicates.map((predicate) => (
            <label key={predicate}>
              <input type="checkbox" checked={asked.includes(predicate)} onChange={() => togglePredicate(predicate)} /> {relationLabel(predicate, 'out')}
            </label>
          ))}
        </fieldset>
        <p className="muted graph-controls__note">The service’s same-owner links and Plat’s owner links come with any of these. Connected entities (v4) use the same depth.</p>
      </div>
    </details>
  );
}

function OwnerAreaControl({ areas, areaUid, loading }: { areas: Array<{ areaUid: string; name: string }>; areaUid: string | null; loading: boolean }) {
  const setOwnerArea = useGraphStore((state) => state.setOwnerArea);
  const id = useId();
  if (loading) return <p className="muted">Reading where owner names are published (free)…</p>;
  const reach = 'From an owner the graph reaches two steps: its holdings, and the parcels or units they sit on; a holding’s Enter shows its other links.';
  if (areas.length <= 1) {
    return (
      <p className="muted graph-controls__note">
        {areas[0] ? `Owner names are searched in ${areas[0].name}. ${reach}` : 'The service lists no area whose rolls publish owner names.'}
      </p>
    );
  }
  return (
    <p className="graph-controls__note">
      <label htmlFor={id}>Owner names searched in </label>
      <select id={id} className="input input--compact" value={areaUid ?? ''} onChange={(event) => setOwnerArea(event.target.value)}>
        {areas.map((area) => (
          <option key={area.areaUid} value={area.areaUid}>
            {area.name}
          </option>
        ))}
      </select>
    </p>
  );
}

/** What the graph is drawn from, each with its price before it is asked, what it cost after, and more pages when there are. */
function Sources({ held, model, rootId, asked }: { held: HeldRequest[]; model: MergedGraph['model']; rootId: string; asked: ReadonlySet<string> }) {
  const queryClient = useQueryClient();
  const addRequests = useGraphStore((state) => state.addRequests);
  const more = uniqueRequests(held.flatMap((entry) => (entry.answer.data ? [nextPageRequest(entry.request, entry.answer.data.envelope)] : [])).filter((request): request is GraphRequest => request !== null && !asked.has(request.key)));
  const loaded = held.filter((entry) => entry.answer.data !== undefined).length;
  return (
    <details className="graph-sources" data-testid="graph-sources">
      <summary>
        Drawn from {loaded} of {held.length} {held.length === 1 ? 'answer' : 'answers'}
        {more.length > 0 && ` · more pages to load`}
      </summary>
      <ul className="graph-sources__list">
        {held.map((entry) => (
          <li key={entry.request.key} className="graph-sources__item">
            <span>{describeRequest(entry.request, model)}</span>{' '}
            {entry.answer.data ? (
              <span className="muted">
                {entry.answer.data.billing.cacheHit || entry.answer.data.billing.chargedMicroUsd === 0 ? 'held · free' : 'held · bought'}
              </span>
            ) : entry.answer.isError ? (
              <ErrorNotice error={entry.answer.error} onRetry={() => void buyGraphRequest(queryClient, entry.request, { confirmed: true })} compact />
            ) : entry.answer.isFetching ? (
              <span className="muted">Asking…</span>
            ) : entry.preview && (entry.preview.expectedCostMicroUsd > 0 || entry.preview.blockedBy) ? (
              <ChargeButton operation={entry.request.operation} request={entry.request.parts as never} label="Ask" what={describeRequest(entry.request, model).toLowerCase()} primary={false} onRun={(options) => void buyGraphRequest(queryClient, entry.request, options)} />
            ) : (
              <CostTag preview={entry.preview} />
            )}
          </li>
        ))}
        {more.map((request) => (
          <li key={request.key} className="graph-sources__item">
            <span>{describeRequest(request, model)}</span>{' '}
            <ChargeButton
              operation={request.operation}
              request={request.parts as never}
              label="Load the next page"
              what={describeRequest(request, model).toLowerCase()}
              primary={false}
              onRun={(options) => {
                addRequests(rootId, [request]);
                void buyGraphRequest(queryClient, request, options);
              }}
            />
          </li>
        ))}
      </ul>
    </details>
  );
}

function GraphStatus({ caps, notes, problems, cutOff }: { caps: string[]; notes: string[]; problems: string[]; cutOff: string[] }) {
  if (caps.length + notes.length + problems.length + cutOff.length === 0) return null;
  return (
    <div className="graph-status" role="status" data-testid="graph-status">
      {caps.map((line) => (
        <p key={line} className="graph-status__cap">
          {line}
        </p>
      ))}
      {cutOff.length > 0 && (
        <p className="graph-status__cut">
          Reached only through links you cut: {cutOff.slice(0, 5).join(', ')}
          {cutOff.length > 5 ? ` and ${cutOff.length - 5} more` : ''}.
        </p>
      )}
      {notes.map((line) => (
        <p key={line} className="muted">
          {line}
        </p>
      ))}
      {problems.map((line) => (
        <p key={line} className="graph-status__problem">
          {line}
        </p>
      ))}
    </div>
  );
}

function EmptyGraph({ root, held, areaUid, areasLoading, rootName }: { root: GraphRoot; held: HeldRequest[]; areaUid: string | null; areasLoading: boolean; rootName: string }) {
  const queryClient = useQueryClient();
  const failed = held.find((entry) => entry.answer.isError);
  if (failed) {
    return (
      <div className="empty-state graph-empty">
        <p>The graph of {rootName} could not be read.</p>
        <ErrorNotice error={failed.answer.error} onRetry={() => void buyGraphRequest(queryClient, failed.request, { confirmed: true })} />
      </div>
    );
  }
  if (root.kind === 'owner') {
    if (areasLoading) return <p className="muted">Reading where owner names are published (free)…</p>;
    const search = held[0];
    if (areaUid === null || !search) return <p className="empty-state graph-empty">Owner names cannot be searched: the service lists no area whose rolls publish them.</p>;
    return (
      <div className="empty-state graph-empty">
        <h2>Holdings of owners named like “{root.name}”</h2>
        <p>The owner-name search lists every holding whose owner of record reads like this name; each one drawn is a lead until you confirm it.</p>
        <ChargeButton
          operation="searchProperties"
          request={search.request.parts as never}
          label="Find the holdings"
          what={`the holdings of owners named like “${root.name}”`}
          busy={search.answer.isFetching}
          onRun={(options) => void buyGraphRequest(queryClient, search.request, options)}
        />
      </div>
    );
  }
  return <p className="muted empty-state graph-empty">Reading the links of {rootName} (free)…</p>;
}

// ---------------------------------------------------------------------------------------------
// Filters and tabs

function Filters({ kinds, relations }: { kinds: Array<{ value: string; label: string; count: number }>; relations: Array<{ value: string; label: string; count: number }> }) {
  const hiddenKinds = useGraphStore((state) => state.hiddenKinds);
  const hiddenRelations = useGraphStore((state) => state.hiddenRelations);
  const toggleKind = useGraphStore((state) => state.toggleKind);
  const toggleRelation = useGraphStore((state) => state.toggleRelation);
  const showAll = useGraphStore((state) => state.showAll);
  const hidden = hiddenKinds.length + hiddenRelations.length;
  // Hidden kinds and relations stay listed (with nothing drawn) so they can be shown again.
  const kindRows = [...kinds, ...hiddenKinds.filter((kind) => !kinds.some((row) => row.value === kind)).map((kind) => ({ value: kind, label: graphNodeKindLabels[kind], count: 0 }))];
  const relationRows = [...relations, ...hiddenRelations.filter((value) => !relations.some((row) => row.value === value)).map((value) => ({ value, label: relationLabel(value, 'out'), count: 0 }))];
  return (
    <div className="graph-filters" role="group" aria-label="Filters">
      <fieldset>
        <legend>Entities</legend>
        {kindRows.map((row) => (
          <label key={row.value}>
            <input type="checkbox" checked={!hiddenKinds.includes(row.value as GraphNodeKind)} onChange={() => toggleKind(row.value as GraphNodeKind)} /> {row.label}
            {row.count > 0 && <span className="muted"> {row.count}</span>}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Links</legend>
        {relationRows.map((row) => (
          <label key={row.value}>
            <input type="checkbox" checked={!hiddenRelations.includes(row.value)} onChange={() => toggleRelation(row.value)} /> {row.label}
            {row.count > 0 && <span className="muted"> {row.count}</span>}
          </label>
        ))}
      </fieldset>
      {hidden > 0 && (
        <button type="button" className="button button--small" onClick={showAll}>
          Show everything
        </button>
      )}
    </div>
  );
}

const TABS: Array<{ id: GraphTab; label: string }> = [
  { id: 'drawing', label: 'Drawing' },
  { id: 'table', label: 'Table' },
  { id: 'runsheet', label: 'Runsheet' },
];

/** ARIA tabs: one tab stop, ←/→/Home/End move between them. */
function GraphTabs({ tab, onChange }: { tab: GraphTab; onChange: (tab: GraphTab) => void }) {
  const listRef = useRef<HTMLDivElement>(null);
  const index = TABS.findIndex((candidate) => candidate.id === tab);
  const go = (next: number) => {
    const target = TABS[(next + TABS.length) % TABS.length];
    if (!target) return;
    onChange(target.id);
    listRef.current?.querySelector<HTMLButtonElement>(`#graph-tab-${target.id}`)?.focus();
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') go(index + 1);
    else if (event.key === 'ArrowLeft') go(index - 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(TABS.length - 1);
    else return;
    event.preventDefault();
  };
  return (
    <div className="graph-tabs" role="tablist" aria-label="Graph shown as" ref={listRef} onKeyDown={onKey}>
      {TABS.map((candidate) => (
        <button
          key={candidate.id}
          id={`graph-tab-${candidate.id}`}
          type="button"
          role="tab"
          className="graph-tabs__tab"
          aria-selected={candidate.id === tab}
          aria-controls={`graph-panel-${candidate.id}`}
          tabIndex={candidate.id === tab ? 0 : -1}
          onClick={() => onChange(candidate.id)}
        >
          {candidate.label}
        </button>
      ))}
    </div>
  );
}
