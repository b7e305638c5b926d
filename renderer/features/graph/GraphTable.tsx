// The same graph as two tables (the accessible form, and the one that prints): every entity with its
// kind, name and steps from the root, every link with its ends, rule, confidence and decision, each
// with the records it rests on cited. Sortable and copyable; Enter on a row selects it.
import { useMemo } from 'react';
import type { Citation } from '../../../shared/cited/value.ts';
import { citationView } from '../../../shared/cited/citation.ts';
import { CitationChip } from '../../components/CitationChip.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import type { LinkStanding } from '../../../shared/graph/decisions.ts';
import { confidenceText, decisionLabels, type LinkRow, type NodeRow } from './graph-model.ts';

/** The column's short words for where a link stands (the panel says the same at length). */
const standingWords: Record<LinkStanding, string> = { fact: 'fact', lead: 'lead', confirmed: 'lead, confirmed', cut: 'cut' };

function Sources({ ids, citations }: { ids: readonly string[]; citations: ReadonlyMap<string, Citation> }) {
  const shown = ids.slice(0, 3);
  return (
    <span className="graph-table__sources">
      {shown.map((id) => {
        const citation = citations.get(id);
        return citation ? <CitationChip key={id} citation={citationView(citation)} /> : null;
      })}
      {ids.length > shown.length && <span className="muted"> +{ids.length - shown.length} more</span>}
      {ids.length === 0 && <span className="muted">Named by the answer asked about it</span>}
    </span>
  );
}

export function GraphTable(props: {
  nodes: NodeRow[];
  links: LinkRow[];
  citations: readonly Citation[];
  onOpenNode: (id: string) => void;
  onOpenLink: (key: string) => void;
}) {
  const citations = useMemo(() => new Map(props.citations.map((citation) => [citation.id, citation])), [props.citations]);
  const sourcesText = (ids: readonly string[]) => ids.map((id) => citations.get(id)?.recordRef ?? id).join(' ');
  const nodeColumns = useMemo<Column<NodeRow>[]>(
    () => [
      { id: 'kind', header: 'Kind', text: (row) => row.kindLabel, width: '110px' },
      { id: 'name', header: 'Name', text: (row) => row.name, render: (row) => (row.root ? <strong>{row.name} (root)</strong> : row.name) },
      { id: 'detail', header: 'Detail', text: (row) => row.detail },
      { id: 'depth', header: 'Steps from root', text: (row) => (row.depth === null ? 'not reached' : String(row.depth)), sortValue: (row) => row.depth, align: 'right', width: '90px' },
      { id: 'more', header: 'More links', text: (row) => (row.expandable ? 'not all shown' : 'all shown'), width: '100px' },
      { id: 'sources', header: 'Sources', text: (row) => sourcesText(row.citationIds), render: (row) => <Sources ids={row.citationIds} citations={citations} /> },
      { id: 'id', header: 'Id', text: (row) => row.id, render: (row) => <span className="mono graph-table__id">{row.id}</span> },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- sourcesText reads only `citations`
    [citations],
  );
  const linkColumns = useMemo<Column<LinkRow>[]>(
    () => [
      { id: 'from', header: 'From', text: (row) => row.from },
      { id: 'label', header: 'Link', text: (row) => row.label, width: '130px' },
      { id: 'to', header: 'To', text: (row) => row.to },
      { id: 'rule', header: 'Rule', text: (row) => row.rule },
      {
        id: 'strength',
        header: 'Fact or lead',
        text: (row) => standingWords[row.standing],
        render: (row) => <span className={`graph-strength graph-strength--${row.standing}`}>{standingWords[row.standing]}</span>,
        width: '110px',
      },
      { id: 'confidence', header: 'Confidence', text: (row) => confidenceText(row.confidence), sortValue: (row) => row.confidence, align: 'right', width: '90px' },
      {
        id: 'decision',
        header: 'Decision',
        text: (row) => (row.decision ? `${decisionLabels[row.decision.decision]}: ${row.decision.note}` : ''),
        render: (row) =>
          row.decision ? (
            <span className={`graph-decided graph-decided--${row.decision.decision}`} title={row.decision.note}>
              {decisionLabels[row.decision.decision]}
            </span>
          ) : (
            <span className="muted">—</span>
          ),
        width: '90px',
      },
      { id: 'sources', header: 'Sources', text: (row) => sourcesText(row.citationIds), render: (row) => <Sources ids={row.citationIds} citations={citations} /> },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- sourcesText reads only `citations`
    [citations],
  );
  return (
    <div className="graph-table stack" data-testid="graph-table">
      <h3 className="graph-table__heading">Links</h3>
      <DataTable label="Links of the graph" columns={linkColumns} rows={props.links} rowKey={(row) => row.key} onOpen={(row) => props.onOpenLink(row.key)} empty="No links drawn." />
      <h3 className="graph-table__heading">Entities</h3>
      <DataTable label="Entities of the graph" columns={nodeColumns} rows={props.nodes} rowKey={(row) => row.id} onOpen={(row) => props.onOpenNode(row.id)} empty="No entities drawn." />
    </div>
  );
}
