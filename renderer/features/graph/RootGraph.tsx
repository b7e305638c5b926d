// The graph around one root: its requests and their answers merged as they arrive, the filters,
// the drawing, table and runsheet tabs, the selected node's or link's panel, and the decisions.
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Project } from '../../../shared/ipc.ts';
import { applyDecisions, type GraphDecision, type GraphDecisionKind } from '../../../shared/graph/decisions.ts';
import { graphSpec } from '../../../shared/graph/graph-view.ts';
import { drawnCountLine, drawnGraph, type GroupBy } from '../../../shared/graph/portfolio-groups.ts';
import { describeLinkKey, nodeName } from '../../../shared/graph/links.ts';
import { CitationBook } from '../../../shared/cited/citation-book.ts';
import { useUiStore } from '../../app/ui-store.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useColorScheme } from '../../platform/use-color-scheme.ts';
import { paidAnswerQuery } from '../../platform/paid-answer.ts';
import {
  advanceGraph,
  expansionRequests,
  filterOptions,
  graphAnswerOf,
  graphTable,
  nextPageRequest,
  parcelOf,
  parcelsOf,
  runsheetParcel,
  rootRequests,
  specFilters,
  uniqueRequests,
  type GraphRequest,
  type GraphRoot,
  type MergedGraph,
} from './graph-model.ts';
import { allFree, buyGraphRequest, saveGraphDecision, useGraphAnswers, useGraphDecisions } from './graph-queries.ts';
import { useGraphStore, type GraphSelection } from './graph-store.ts';
import { DecisionDialog, type DecisionRequest } from './DecisionDialog.tsx';
import { OwnerAreaControl, TraversalControls } from './GraphControls.tsx';
import { GraphFilters } from './GraphFilters.tsx';
import { GroupControl } from './GroupControl.tsx';
import { GraphSources } from './GraphSources.tsx';
import { EmptyGraph, GraphStatus } from './GraphStatus.tsx';
import { GraphTable } from './GraphTable.tsx';
import { GraphTabs } from './GraphTabs.tsx';
import { TabPanel } from '../../components/Tabs.tsx';
import { LinkPanel } from './LinkPanel.tsx';
import { NodePanel } from './NodePanel.tsx';
import { RunsheetPanel } from './RunsheetPanel.tsx';
import { SelectionHint } from './SelectionHint.tsx';
import { useOwnerArea } from './use-owner-area.ts';

// cytoscape (and its layouts) load with the drawing, not with the app.
const EntityGraph = lazy(() => import('../../components/graph/EntityGraph.tsx').then((module) => ({ default: module.EntityGraph })));

export function RootGraph({ root, assignment }: { root: GraphRoot; assignment: Project | null }) {
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
  // "Open in the graph" (from a property or an owner) lands here: the focus on the graph's heading,
  // not on the body the button it came from left behind.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusGraph = useUiStore((state) => state.focusGraph);
  useEffect(() => {
    if (!focusGraph) return;
    headingRef.current?.focus();
    useUiStore.getState().graphFocused();
  }, [focusGraph]);

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
  // What the canvas draws (a large owner's holdings in groups) and what the status line counts: one call.
  const [groupBy, setGroupBy] = useState<GroupBy>('street');
  const [openGroups, setOpenGroups] = useState<{ rootId: string; by: GroupBy; ids: ReadonlySet<string> }>({ rootId: root.id, by: groupBy, ids: new Set() });
  const open = useMemo(() => (openGroups.rootId === root.id && openGroups.by === groupBy ? openGroups.ids : new Set<string>()), [openGroups, root.id, groupBy]);
  const drawing = useMemo(() => drawnGraph(view, model, { by: groupBy, open }), [view, model, groupBy, open]);
  const toggleGroup = (id: string) => {
    const group = drawing.groups.find((candidate) => candidate.id === id);
    if (!group) return;
    const ids = new Set(open);
    if (group.open) ids.delete(id);
    else ids.add(id);
    setOpenGroups({ rootId: root.id, by: groupBy, ids });
    setAnnouncement(`${group.label}: ${group.holdings} holdings ${group.open ? 'closed' : 'opened'}.`);
  };
  const decided = useMemo(() => applyDecisions(drawing.spec, decisions), [drawing.spec, decisions]);
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
    if (id.startsWith('group:')) {
      toggleGroup(id);
      return;
    }
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
      <h2 className="graph-root" ref={headingRef} tabIndex={-1}>
        Drawn from <span className="graph-root__name">{rootName}</span>{' '}
        <span className="muted graph-root__kind">{drawn ? (view.spec.nodes.find((node) => node.root)?.sublabel ?? '') : root.kind === 'owner' ? 'Owner' : ''}</span>
      </h2>
      {root.kind === 'entity' ? <TraversalControls settings={settings} /> : <OwnerAreaControl areas={owners.areas} areaUid={owners.areaUid} loading={owners.loading} unread={owners.unread} onRead={owners.read} />}
      <GraphSources held={held} model={model} rootId={root.id} asked={asked} />
      <GraphStatus drawn={drawn ? drawnCountLine(drawing.counts) : null} caps={view.caps} notes={view.notes} problems={current.problems} unread={current.unread} cutOff={decided.cutOff.map((id) => view.spec.nodes.find((node) => node.id === id)?.label ?? id)} />
      {decisionsQuery.isError && <ErrorNotice error={decisionsQuery.error} onRetry={() => void decisionsQuery.refetch()} compact />}
      {decisionFailure !== null && <ErrorNotice error={decisionFailure} compact />}
      {!drawn ? (
        <EmptyGraph root={root} held={held} areaUid={owners.areaUid} areasLoading={owners.loading} areasUnread={owners.unread} rootName={rootName} />
      ) : (
        <>
          <GraphFilters kinds={options.kinds} relations={options.relations} />
          <GraphTabs tab={tab} onChange={setTab} />
          {/* Escape anywhere in the drawing, table or panel puts the selection down (a dialog's Escape is its own). */}
          <div
            className="graph-main"
            onKeyDown={(event) => {
              if (event.key !== 'Escape' || event.defaultPrevented || (event.target as Element).closest('dialog')) return;
              const fromPanel = (event.target as Element).closest('.graph-side') !== null;
              select(null);
              // The panel that held the focus gives way to the hint: the focus goes to the drawing (or the graph's heading), not the body.
              if (fromPanel) (event.currentTarget.querySelector<HTMLElement>('[role="tabpanel"] [tabindex="0"]') ?? headingRef.current)?.focus();
            }}
          >
            <TabPanel idPrefix="graph" id={tab} className="graph-main__tab">
              {tab === 'drawing' && drawing.groups.length > 0 && (
                <GroupControl
                  by={groupBy}
                  onChange={setGroupBy}
                  groups={drawing.groups.length}
                  open={drawing.counts.openGroups}
                  onCloseAll={() => setOpenGroups({ rootId: root.id, by: groupBy, ids: new Set() })}
                />
              )}
              {tab === 'drawing' && (
                <Suspense fallback={<p className="muted graph-main__loading">Loading the drawing…</p>}>
                  <EntityGraph
                    spec={decided.spec}
                    theme={theme}
                    selectedId={selection?.id ?? null}
                    className="graph-main__canvas"
                    onSelectNode={(id) => (id.startsWith('group:') ? toggleGroup(id) : select({ type: 'node', id }))}
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
            </TabPanel>
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
                <SelectionHint decisions={decisions} titles={linkTitles} describe={(key) => describeLinkKey(model, key)} onShow={(key) => select({ type: 'link', id: key })} hasAssignment={assignment !== null} />
              )}
            </aside>
          </div>
        </>
      )}
      <DecisionDialog request={deciding} onSave={decide} onClose={() => setDeciding(null)} />
    </>
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
