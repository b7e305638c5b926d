// The entity page's links as a title researcher reads them, from the free answers the page holds (the
// v2 relationship traversal, page by page, and the entity's own record): every linked entity named by
// what a person recognises (address, SSL, account number, owner name) with its kind, each link read in
// the direction shown ("Parcel SSL 0065 0007 — assessed under → Account 0065 0007"), grouped by
// relation, each with why it exists, its supporting records and how sure it is (shared/graph), and
// the links further out said as a path from the entity they start at. Pure.
import { buildGraph, readTraversalNode, type GraphAnswer, type GraphModel, type UnreadPart } from '../../../shared/graph/build-graph.ts';
import { distancesFrom, modelLinks, nodeName, ownerVariants, type LinkRule, type ModelLink } from '../../../shared/graph/links.ts';
import { isKnownPredicate, relationGroups, relationLabel, type EntityName } from '../../../shared/graph/relations.ts';
import { graphNodeKindLabels } from '../../../shared/graph/graph-spec.ts';
import { whyLinked } from '../../../shared/graph/why-linked.ts';
import { CitationBook } from '../../../shared/cited/citation-book.ts';
import type { Citation } from '../../../shared/cited/value.ts';
import { isRecord } from '../../../shared/json-data.ts';
import { entityPrefix } from '../../../shared/service/common.ts';

export interface LinkedEntity {
  id: string;
  /** "Parcel", "Tax account", "Permit record", "Owner". */
  kindLabel: string;
  name: EntityName;
  /** An entity the entity page can show (records are not entities). */
  openable: boolean;
  /** For an owner: the name as published (most used spelling), which opens the owner's page. */
  ownerName: string | null;
  /** What the service says the record cannot be trusted for (a permit's placeholder SSL). */
  limitations: string[];
}

export interface LinkEntry {
  key: string;
  other: LinkedEntity;
  /** For a link further out, the entity it starts at; null for the page's own links. */
  via: LinkedEntity | null;
  /** Links from the page's entity to `other`. */
  depth: number;
  /** Reads from `via` (or the page's entity) to `other`: "taxed under", "owned by". */
  label: string;
  rule: LinkRule;
  strength: 'fact' | 'lead';
  /** The rule in plain words about these two ends. */
  because: string;
  /** What a lead asks of the researcher; null for a fact. */
  warning: string | null;
  validity: string;
  confidenceText: string;
  /** The supporting records, as citation ids of `ConnectedView.citations`. */
  citationIds: string[];
}

export interface LinkGroup {
  /** `predicate:direction`, with `:further` for links further out. */
  key: string;
  /** As a heading: "Holds", "Assessed under", "Owned by". */
  label: string;
  further: boolean;
  entries: LinkEntry[];
  /** Every entry is a lead (same owner name, address match, an invalid key): the group says so once. */
  leads: boolean;
  /** The one owner name a same-owner group is about, when it is one (opens that owner's page). */
  ownerName: string | null;
}

export interface ConnectedView {
  root: LinkedEntity;
  groups: LinkGroup[];
  /** Entities listed (the page's entity not counted). */
  entities: number;
  /** Service links held, and how many the service found within its caps (null when it does not say). */
  linksHeld: number;
  linksFound: number | null;
  /** Set when the service stopped listing at its cap: "max_nodes 200". */
  stopped: string | null;
  citations: ReadonlyMap<string, Citation>;
  problems: string[];
  /** Parts of the answers Plat could not read, kept to be shown as published with their citations. */
  unread: UnreadPart[];
}

const capitalise = (text: string): string => (text === '' ? text : text.charAt(0).toUpperCase() + text.slice(1));

function linkedEntity(model: GraphModel, id: string, limitations: ReadonlyMap<string, string[]>): LinkedEntity {
  const claims = model.owners.get(id);
  const entity = model.entities.get(id);
  const kindLabel = claims
    ? 'Owner'
    : entity?.kind === 'record'
      ? `${capitalise(entity.recordKind ?? 'record')} record`
      : entity
        ? graphNodeKindLabels[entity.kind]
        : 'Entity';
  return {
    id,
    kindLabel,
    name: nodeName(model, id),
    openable: claims === undefined && entityPrefix(id) !== undefined && entity?.kind !== 'record',
    ownerName: claims ? (ownerVariants(claims.values())[0]?.published ?? null) : null,
    limitations: limitations.get(id) ?? [],
  };
}

/** What the traversal pages say of themselves: the records' limitations, how many links, where the service stopped. */
function readPages(pages: readonly unknown[]): { limitations: Map<string, string[]>; found: number | null; stopped: string | null } {
  const limitations = new Map<string, string[]>();
  let found: number | null = null;
  let stopped: string | null = null;
  for (const page of pages) {
    if (!isRecord(page) || page.status !== 'ok' || !isRecord(page.data)) continue;
    const { data } = page;
    if (typeof data.edge_count === 'number') found = data.edge_count;
    if (isRecord(page.meta) && page.meta.truncated === true) {
      const nodes = typeof data.node_count === 'number' ? data.node_count : 0;
      stopped = typeof data.max_nodes === 'number' && nodes >= data.max_nodes ? `${data.max_nodes} entities` : `${String(data.max_edges)} links`;
    }
    for (const node of Array.isArray(data.nodes) ? data.nodes : []) {
      const read = isRecord(node) ? readTraversalNode(node) : null;
      if (read === null || !isRecord(node) || !Array.isArray(node.limitations)) continue;
      limitations.set(read.id, node.limitations.filter((line): line is string => typeof line === 'string'));
    }
  }
  return { limitations, found, stopped };
}

/**
 * The links of `rootId` from the traversal pages held (in order) and, when held, its v2 entity record
 * (which names its owner). Links further out are listed once per entity they reach, from the entity
 * one link nearer; links between entities already listed are the graph's to show.
 */
export function connectedView(rootId: string, traversalPages: readonly unknown[], entityRecord: unknown = null): ConnectedView {
  const answers: GraphAnswer[] = traversalPages.map((envelope) => ({ kind: 'relationships', envelope }));
  if (entityRecord !== null) answers.push({ kind: 'entity', envelope: entityRecord });
  const { model, problems, unread } = buildGraph(rootId, answers);
  const links = modelLinks(model);
  const { limitations, found, stopped } = readPages(traversalPages);
  const book = new CitationBook();
  const named = new Map<string, LinkedEntity>();
  const entityOf = (id: string) => {
    let known = named.get(id);
    if (!known) named.set(id, (known = linkedEntity(model, id, limitations)));
    return known;
  };
  const kindOf = (id: string) => model.entities.get(id)?.kind;

  const entry = (link: ModelLink, other: string, via: string | null, depth: number): LinkEntry => {
    const why = whyLinked(model, link.key, book.cite, links);
    const direction = link.source === (via ?? rootId) ? 'out' : 'in';
    return {
      key: link.key,
      other: entityOf(other),
      via: via === null ? null : entityOf(via),
      depth,
      label: relationLabel(link.predicate, direction, kindOf(link.target)),
      rule: link.rule,
      strength: link.strength,
      because: why?.because ?? '',
      warning: why?.warning ?? null,
      validity: why?.validity ?? '',
      confidenceText: why?.confidenceText ?? '',
      citationIds: why?.records.map((record) => record.citationId) ?? [],
    };
  };

  const groups: LinkGroup[] = relationGroups(rootId, links, kindOf).map((group) => ({
    key: group.key,
    label: group.label,
    further: false,
    entries: group.entries.map(({ link, other }) => entry(link, other, null, 1)),
    leads: false,
    ownerName: null,
  }));

  // Further out: each entity once, by the first link that reaches it from one link nearer.
  const depths = distancesFrom(rootId, links);
  const further = new Map<string, LinkGroup>();
  for (const [id, depth] of [...depths].sort((a, b) => a[1] - b[1])) {
    if (depth < 2) continue;
    const link = links.find((candidate) => {
      const near = candidate.source === id ? candidate.target : candidate.target === id ? candidate.source : null;
      return near !== null && depths.get(near) === depth - 1;
    });
    if (!link) continue;
    const via = link.source === id ? link.target : link.source;
    const made = entry(link, id, via, depth);
    const key = `${link.predicate}:${link.source === via ? 'out' : 'in'}:further`;
    const label = isKnownPredicate(link.predicate) ? capitalise(made.label) : made.label;
    const group = further.get(key) ?? { key, label, further: true, entries: [], leads: false, ownerName: null };
    group.entries.push(made);
    further.set(key, group);
  }

  const all = [...groups, ...further.values()].map((group) => {
    const leads = group.entries.every((candidate) => candidate.strength === 'lead');
    const bases = new Set(group.entries.map((candidate) => links.find((link) => link.key === candidate.key)?.service?.basis ?? null));
    const [basis] = bases;
    const sameOwner = group.key.startsWith('same_owner:');
    return { ...group, leads, ownerName: sameOwner && bases.size === 1 && basis ? basis : null };
  });
  const listed = new Set(all.flatMap((group) => group.entries.map((candidate) => candidate.other.id)));
  return {
    root: entityOf(rootId),
    groups: all,
    entities: listed.size,
    linksHeld: [...model.links.values()].length,
    linksFound: found,
    stopped,
    citations: new Map(book.all().map((citation) => [citation.id, citation])),
    problems,
    unread,
  };
}
