// The report's title research: what the researcher found about the subject's title, from the answers
// the assignment keeps (every graph answer, owner search, entity record and record search bought or
// served while it was active). Only the answers about the subject are used: its graph grows from the
// subject through the answers anchored on what it already reaches (a traversal or connected call
// around a reached entity, an entity record, an owner search listing a reached holding or named like a
// reached owner), as the Graph view grew it; the owner portfolio is the search of the subject's owner
// of record; the runsheet is the subject's parcel's. Pure: the same answers and decisions give the
// same section, cited through the report's one CitationBook.
import { canonicalJson } from '../canonical-json.ts';
import { isRecord } from '../json-data.ts';
import { text } from '../graph/answers.ts';
import { buildGraph, emptyGraph, graphSpec, refCitation, type GraphAnswer, type GraphModel } from '../graph/build-graph.ts';
import { applyDecisions, type GraphDecision } from '../graph/decisions.ts';
import { graphNodeKindLabels } from '../graph/graph-spec.ts';
import { drawnCountLine, drawnGraph } from '../graph/portfolio-groups.ts';
import { describeLinkKey, distancesFrom, factReach, linkRuleLabels, modelLinks, nodeName, type ModelLink } from '../graph/links.ts';
import { ownerPortfolio, searchCovers } from '../graph/portfolio.ts';
import { kindOfId, ownerNameKey, ownerNodeId, shortId, sslText } from '../graph/relations.ts';
import { parcelRunsheet, runsheetEventLabels, type RunsheetEntry } from '../graph/runsheet.ts';
import { whyLinked } from '../graph/why-linked.ts';
import { documentCitation } from '../cited/citation.ts';
import { citationOrder } from '../cited/citation-order.ts';
import type { Cite } from '../cited/citation-book.ts';
import type { PortfolioHoldingRow, RunsheetRow, TitleResearchDecision, TitleResearchLink, TitleResearchNode, TitleResearchPortfolio, TitleResearchRunsheet, TitleResearchSection } from './document.ts';
import type { CitedValue, Limitation } from '../cited/value.ts';

export const TITLE_RESEARCH_TITLE = 'Title research';

type Json = Record<string, unknown>;

/** One answer the assignment keeps: the operation, its request parts as the gateway normalised them, the envelope. */
export interface KeptServiceAnswer {
  operation: string;
  request: Record<string, unknown>;
  envelope: unknown;
}

export interface TitleResearchInput {
  answers: readonly KeptServiceAnswer[];
  decisions: readonly GraphDecision[];
}

/** What the report already knows about the subject. */
export interface TitleResearchSubject {
  subjectRef: string;
  /** The owner of record the subject's sections print, for when no answer of title research names the owner. */
  owner: CitedValue | null;
  /** The subject's SSL as the subject's sections print it, to find its parcel's record without a graph. */
  ssl: string | null;
}

/** The operations whose kept answers title research reads (the core passes these, the section picks those about the subject). */
export const titleResearchOperations: ReadonlySet<string> = new Set(['v2.traverseRelationships', 'v4.connected', 'v2.getEntity', 'v2.searchProperties', 'v4.search']);

/** Record searches a runsheet reads (v4 kinds): sales, ownership records, permits. */
const RUNSHEET_KINDS: ReadonlySet<string> = new Set(['sale', 'ownership', 'permit']);

const record = (value: unknown): Json => (isRecord(value) ? value : {});

// ---------------------------------------------------------------------------------------------
// Sorting the kept answers

interface Classified {
  /** Graph answers in the order they were used, each with the entities (and owner nodes) it is about. */
  graph: Array<{ answer: GraphAnswer; anchors: string[] }>;
  /** Owner-name searches, page by page. */
  ownerSearches: Array<{ name: string; key: string; envelope: unknown }>;
  /** The latest v2 entity answer of each entity. */
  entities: Map<string, unknown>;
  /** v4 searches of sales, ownership records and permits, with the entities their records are about. */
  recordSearches: Array<{ envelope: unknown; qIds: Set<string> }>;
}

/** The text an owner-name search looked for, when the search is of owner names alone (another filter would give part of a portfolio). */
function ownerSearchName(request: Json): string | null {
  const filters = record(request.body).filters;
  if (!Array.isArray(filters) || filters.length !== 1) return null;
  const filter = record(filters[0]);
  return filter.field === 'owner_name' && filter.op === 'contains' ? text(filter.value) : null;
}

function itemsOf(envelope: unknown): Json[] {
  const items = record(record(envelope).data).items;
  return Array.isArray(items) ? items.filter(isRecord) : [];
}

/** The answers of title research, each request once (the latest answer to it), in the order last used. */
function classify(answers: readonly KeptServiceAnswer[]): Classified {
  const latest = new Map<string, KeptServiceAnswer>();
  for (const answer of answers) {
    const key = `${answer.operation} ${canonicalJson(answer.request)}`;
    latest.delete(key);
    latest.set(key, answer);
  }
  const classified: Classified = { graph: [], ownerSearches: [], entities: new Map(), recordSearches: [] };
  for (const { operation, request, envelope } of latest.values()) {
    const path = record(request.path);
    const query = record(request.query);
    if (operation === 'v2.traverseRelationships') {
      const root = text(path.entity_ref) ?? text(record(record(envelope).data).root_ref);
      classified.graph.push({ answer: { kind: 'relationships', envelope }, anchors: root ? [root] : [] });
    } else if (operation === 'v4.connected') {
      const qId = text(path.q_id);
      const depth = Number(query.depth ?? 2);
      if (qId) classified.graph.push({ answer: { kind: 'connected', qId, depth: Number.isInteger(depth) ? depth : 2, envelope }, anchors: [qId] });
    } else if (operation === 'v2.getEntity') {
      const ref = text(path.entity_ref);
      if (ref) {
        classified.entities.set(ref, envelope);
        classified.graph.push({ answer: { kind: 'entity', envelope }, anchors: [ref] });
      }
    } else if (operation === 'v2.searchProperties') {
      const name = ownerSearchName(request);
      if (name === null || ownerNameKey(name) === '') continue;
      classified.ownerSearches.push({ name, key: ownerNameKey(name), envelope });
      // About the owner group it is named like, and about every holding it lists.
      const holdings = itemsOf(envelope).flatMap((item) => [text(item.entity_ref), text(item.property_ref)].filter((ref): ref is string => ref !== null));
      classified.graph.push({ answer: { kind: 'owner-search', name, envelope }, anchors: [ownerNodeId(name), ...holdings] });
    } else if (operation === 'v4.search' && RUNSHEET_KINDS.has(String(query.kind))) {
      const qIds = new Set(itemsOf(envelope).flatMap((item) => (Array.isArray(item.q_ids) ? item.q_ids.filter((id): id is string => typeof id === 'string') : [])));
      classified.recordSearches.push({ envelope, qIds });
    }
  }
  return classified;
}

/**
 * The graph answers about the subject: those anchored on the subject, then on what they reach, and so
 * on, merged in the order they were used. An answer about an unrelated entity (the Graph view opened
 * elsewhere while the assignment was active) stays out.
 */
function subjectGraphAnswers(subjectRef: string, candidates: Classified['graph']): GraphAnswer[] {
  const included = new Set<number>();
  let reached = new Set([subjectRef]);
  for (;;) {
    const before = included.size;
    candidates.forEach((candidate, index) => {
      if (!included.has(index) && candidate.anchors.some((id) => reached.has(id))) included.add(index);
    });
    if (included.size === before) break;
    const { model } = buildGraph(subjectRef, candidates.filter((_, index) => included.has(index)).map((candidate) => candidate.answer));
    reached = new Set([subjectRef, ...model.entities.keys(), ...model.owners.keys()]);
  }
  return candidates.filter((_, index) => included.has(index)).map((candidate) => candidate.answer);
}

// ---------------------------------------------------------------------------------------------
// The graph and its table

/** An owner's name is a value: cited to the sources of the ownership records that publish it (each source once). */
function ownerCitations(model: GraphModel, ownerId: string, cite: Cite): string[] {
  const ids = new Set<string>();
  for (const claim of model.owners.get(ownerId)?.values() ?? []) {
    if (claim.citation) ids.add(cite(documentCitation({ ...claim.citation, recordRef: null, extra: {} })));
    else if (claim.recordRef) ids.add(cite(refCitation(model, claim.recordRef)));
  }
  return [...ids];
}

function linkDates(link: ModelLink): TitleResearchLink['dates'] {
  if (link.owner) {
    const asOf = link.owner.claim.citation?.asOf ?? null;
    return asOf === null ? { kind: 'none', from: null, to: null } : { kind: 'owner_as_of', from: asOf, to: null };
  }
  const from = link.service?.validFrom ?? null;
  const to = link.service?.validTo ?? null;
  return from === null && to === null ? { kind: 'none', from: null, to: null } : { kind: 'valid', from, to };
}

/**
 * The part of the model linked to the subject, by any link (a cut one too: what it cuts off is drawn
 * cut off). An owner search by a name's text also lists other owners whose names contain it, and
 * their holdings: they are not about the subject, and are counted instead of drawn.
 */
function subjectComponent(model: GraphModel): { model: GraphModel; apart: number } {
  const reached = new Set(distancesFrom(model.rootId, modelLinks(model)).keys());
  reached.add(model.rootId);
  const entities = new Map([...model.entities].filter(([id]) => reached.has(id)));
  const owners = new Map([...model.owners].filter(([id]) => reached.has(id)));
  const apart = [...model.entities.values()].filter((entity) => entity.kind !== 'record' && !reached.has(entity.id)).length + (model.owners.size - owners.size);
  if (apart === 0) return { model, apart };
  const links = new Map([...model.links].filter(([, link]) => reached.has(link.subject) && reached.has(link.object)));
  return { model: { ...model, entities, owners, links }, apart };
}

interface GraphPart {
  graph: NonNullable<TitleResearchSection['graph']>;
  model: GraphModel;
  links: ModelLink[];
}

function graphPart(subjectRef: string, answers: readonly GraphAnswer[], decisions: readonly GraphDecision[], cite: Cite, problems: string[]): GraphPart {
  const built = buildGraph(subjectRef, answers);
  problems.push(...built.problems);
  const { model, apart } = subjectComponent(built.model);
  const view = graphSpec(model);
  if (apart > 0) {
    view.notes.push(`${apart} ${apart === 1 ? 'entity' : 'entities'} in the answers ${apart === 1 ? 'is' : 'are'} not linked to the subject (other owners an owner search found, or what they hold): left out of this graph.`);
  }
  const decided = applyDecisions(view.spec, decisions);
  const byKey = new Map(decisions.map((decision) => [decision.edgeKey, decision]));
  const cutOff = new Set(decided.cutOff);
  const nodes: TitleResearchNode[] = decided.spec.nodes.map((node) => ({
    id: node.id,
    kind: node.kind,
    kindLabel: graphNodeKindLabels[node.kind],
    label: node.label,
    sublabel: node.sublabel,
    root: node.root,
    depth: node.depth,
    cutOff: cutOff.has(node.id),
    citationIds: node.kind === 'owner' ? ownerCitations(model, node.id, cite) : [],
  }));
  const labels = new Map(nodes.map((node) => [node.id, node.label]));
  const links: TitleResearchLink[] = view.links.map((link) => {
    const why = whyLinked(model, link.key, cite, view.links);
    const decision = byKey.get(link.key);
    const records = why?.records ?? [];
    return {
      key: link.key,
      fromId: link.source,
      from: labels.get(link.source) ?? link.source,
      label: link.label,
      toId: link.target,
      to: labels.get(link.target) ?? link.target,
      rule: link.rule,
      ruleLabel: linkRuleLabels[link.rule],
      strength: link.strength,
      confidence: link.confidence,
      confidenceText: why?.confidenceText ?? 'Not given.',
      because: why?.because ?? 'The answers do not say why.',
      warning: why?.warning ?? null,
      dates: linkDates(link),
      records,
      citationIds: [...new Set(records.map((supporting) => supporting.citationId))],
      decision: decision ? { decision: decision.decision, note: decision.note, at: decision.at } : null,
    };
  });
  // The image draws a large owner's holdings in closed groups, as the Graph view first shows them; the tables list every one.
  const drawing = drawnGraph(view, model, { by: 'street', open: new Set() });
  const drawn = drawing.groups.length > 0 ? applyDecisions(drawing.spec, decisions).spec : decided.spec;
  const notes = drawing.groups.length > 0 ? [...view.notes, drawnCountLine(drawing.counts)] : view.notes;
  const spec = { ...drawn, altText: altText(drawn.altText, links, nodes) };
  return { graph: { spec, caps: view.caps, notes, nodes, links }, model, links: view.links };
}

/** The graph's alt text with the researcher's decisions and what a cut leaves unreached. */
function altText(base: string, links: readonly TitleResearchLink[], nodes: readonly TitleResearchNode[]): string {
  const said = (link: TitleResearchLink) => `${link.from} ${link.label} ${link.to}`;
  const cut = links.filter((link) => link.decision?.decision === 'cut');
  const confirmed = links.filter((link) => link.decision?.decision === 'confirmed');
  const parts = [base];
  if (cut.length > 0) parts.push(`Cut by the researcher, drawn crossed out: ${cut.map(said).join('; ')}.`);
  if (confirmed.length > 0) parts.push(`Confirmed by the researcher: ${confirmed.map(said).join('; ')}.`);
  const off = nodes.filter((node) => node.cutOff);
  if (off.length > 0) parts.push(`Reached only through a cut link: ${off.map((node) => node.label).join(', ')}.`);
  return parts.join(' ');
}

// ---------------------------------------------------------------------------------------------
// The subject's owner and parcel

/** The owner of record of the holding nearest the subject along facts, by the graph; null when the graph names none. */
function graphOwner(model: GraphModel, links: readonly ModelLink[]): string | null {
  // The records' word, before the researcher's decisions: a cut of it is said beside the portfolio.
  const facts = factReach(model.rootId, links);
  let best: { ownerId: string; distance: number } | null = null;
  for (const link of links) {
    if (!link.owner || link.rule !== 'owner_of_record') continue;
    const distance = facts.get(link.source) ?? Number.POSITIVE_INFINITY;
    if (best === null || distance < best.distance) best = { ownerId: link.owner.ownerId, distance };
  }
  return best?.ownerId ?? null;
}

/** The subject's parcel: nearest along the graph's facts; else the parcel its records are filed under; else the parcel record carrying its SSL. */
function subjectParcel(subject: TitleResearchSubject, part: GraphPart | null, classified: Classified): string | null {
  if (part) {
    const parcels = [...factReach(part.model.rootId, part.links)]
      .filter(([id]) => part.model.entities.get(id)?.kind === 'parcel' && nodeName(part.model, id).invalidKey === null)
      .sort((a, b) => a[1] - b[1]);
    if (parcels[0]) return parcels[0][0];
  }
  for (const search of classified.recordSearches) {
    if (!search.qIds.has(subject.subjectRef)) continue;
    for (const item of itemsOf(search.envelope)) {
      const ids = Array.isArray(item.q_ids) ? item.q_ids.filter((id): id is string => typeof id === 'string') : [];
      const parcel = ids.includes(subject.subjectRef) ? ids.find((id) => kindOfId(id) === 'parcel') : undefined;
      if (parcel) return parcel;
    }
  }
  if (subject.ssl !== null) {
    const wanted = sslText(subject.ssl);
    for (const [ref, envelope] of classified.entities) {
      if (kindOfId(ref) !== 'parcel') continue;
      const identifiers = record(record(record(envelope).data).entity).identifiers;
      const ssl = Array.isArray(identifiers) ? identifiers.map(record).find((identifier) => identifier.scheme === 'ssl') : undefined;
      if (ssl && typeof ssl.value === 'string' && sslText(ssl.value) === wanted) return ref;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The portfolio

/** The same value under a field and label of its own place in the report. */
const placed = (value: CitedValue, field: string, label: string): CitedValue => ({ ...value, field, label });

/**
 * The owner-name search that covers the owner: one for the name itself, else the narrowest whose text
 * the name contains (a search for KUIPERS lists every holding of JOEL KUIPERS); its pages in order.
 */
function coveringSearch(ownerKey: string, searches: Classified['ownerSearches']): { name: string; pages: unknown[] } | null {
  const best = searches.filter((search) => searchCovers(search.key, ownerKey)).sort((a, b) => Number(b.key === ownerKey) - Number(a.key === ownerKey) || b.key.length - a.key.length)[0];
  if (!best) return null;
  const pages = searches.filter((search) => search.key === best.key);
  return { name: pages.at(-1)?.name ?? best.name, pages: pages.map((search) => search.envelope) };
}

/**
 * The owner links the researcher cut, by the entity each hangs on, with the entities one fact away
 * (an owner named on a holding's tax account is the holding's): a portfolio row is cut when any is.
 */
function cutOwnerLinks(part: GraphPart | null, ownerId: string): Map<string, { note: string; at: string }> {
  const cut = new Map<string, { note: string; at: string }>();
  if (part === null) return cut;
  for (const link of part.graph.links) {
    if (link.toId !== ownerId || link.decision?.decision !== 'cut') continue;
    const decision = { note: link.decision.note, at: link.decision.at };
    for (const [id, steps] of factReach(link.fromId, part.links)) if (steps <= 1 && !id.startsWith('owner:')) cut.set(id, decision);
  }
  return cut;
}

function portfolioPart(
  subjectRef: string,
  owner: { key: string; name: string; citationIds: string[] },
  searches: Classified['ownerSearches'],
  cuts: ReadonlyMap<string, { note: string; at: string }>,
  cite: Cite,
): TitleResearchPortfolio | null {
  const { key: ownerKey, name: ownerName, citationIds: fallbackCitations } = owner;
  const search = coveringSearch(ownerKey, searches);
  if (search === null) return null;
  const portfolio = ownerPortfolio(search.name, search.pages, cite);
  const group = portfolio.owners.find((owner) => owner.key === ownerKey);
  const holdings = group?.holdings ?? [];
  const where = (propertyRef: string) => `titleResearch.portfolio.${propertyRef}`;
  const rows: PortfolioHoldingRow[] = holdings.map((holding) => {
    const at = where(holding.propertyRef);
    const name = `Holding (${holding.address.status === 'unavailable' ? shortId(holding.propertyRef) : holding.address.display})`;
    return {
      propertyRef: holding.propertyRef,
      // A parcel on two rows is the subject's when either row is.
      subject: holding.records.some((record) => record.propertyRef === subjectRef),
      address: placed(holding.address, `${at}.address`, `${name}: address`),
      identifier: placed(holding.identifier, `${at}.identifier`, `${name}: ${holding.identifier.label}`),
      use: placed(holding.use, `${at}.use`, `${name}: ${holding.use.label}`),
      assessed: placed(holding.assessed, `${at}.assessed`, `${name}: assessed value`),
      lastSalePrice: placed(holding.lastSalePrice, `${at}.lastSalePrice`, `${name}: last sale price`),
      lastSaleDate: placed(holding.lastSaleDate, `${at}.lastSaleDate`, `${name}: last sale date`),
      cut: cuts.get(holding.propertyRef) ?? cuts.get(holding.openId) ?? null,
    };
  });
  // The name cites the ownership record of the subject's own holding when the search lists it.
  const named = holdings.find((holding) => holding.records.some((record) => record.propertyRef === subjectRef) && holding.owner.status !== 'unavailable') ?? holdings.find((holding) => holding.owner.status !== 'unavailable');
  const spellingCitations = (published: string) => holdings.find((holding) => holding.published === published)?.owner.citationIds ?? [];
  const total = group?.totalAssessed ?? portfolio.totalAssessed;
  return {
    searched: portfolio.searched,
    ownerName: group?.name ?? ownerName,
    ownerCitationIds: named ? [...named.owner.citationIds] : fallbackCitations,
    variants: (group?.variants ?? []).map((variant) => ({ ...variant, citationIds: [...spellingCitations(variant.published)] })),
    countText: group ? group.countText : `No holding of this owner in the loaded pages (${portfolio.countText})`,
    complete: portfolio.complete,
    identifierLabel: holdings.find((holding) => holding.identifier.status !== 'unavailable')?.identifier.label ?? 'SSL',
    holdings: rows,
    totalAssessed: placed(group ? total : { ...total, raw: null, display: '—', status: 'unavailable', citationIds: [], derivedFrom: null, limitation: 'No holding of this owner is loaded.' }, 'titleResearch.portfolio.totalAssessed', 'Portfolio: total assessed value'),
    otherOwners: portfolio.owners
      .filter((owner) => owner.key !== ownerKey)
      .map((owner) => ({ name: owner.name, countText: owner.countText, citationIds: [...(owner.holdings.find((holding) => holding.owner.status !== 'unavailable')?.owner.citationIds ?? [])] })),
    problems: portfolio.problems,
  };
}

// ---------------------------------------------------------------------------------------------
// The runsheet

/** Each gap cited to the records it speaks of: the entries whose dates it names, or the sale it says is the only one. */
function gapCitations(gap: string, entries: readonly RunsheetEntry[]): string[] {
  const ids = new Set<string>();
  for (const entry of entries) if (gap.includes(entry.day)) entry.date.citationIds.forEach((id) => ids.add(id));
  if (ids.size === 0 && /earlier transfers/.test(gap)) entries.find((entry) => entry.event === 'sale')?.date.citationIds.forEach((id) => ids.add(id));
  return [...ids];
}

function runsheetPart(parcelRef: string, classified: Classified, cite: Cite): TitleResearchRunsheet | null {
  const entity = classified.entities.get(parcelRef);
  const records = classified.recordSearches.filter((search) => search.qIds.has(parcelRef)).map((search) => search.envelope);
  if (entity === undefined && records.length === 0) return null;
  const sheet = parcelRunsheet({ parcelRef, ...(entity === undefined ? {} : { entity }), records }, cite);
  const entries: RunsheetRow[] = sheet.entries.map((entry) => {
    const at = `titleResearch.runsheet.${entry.key}`;
    const name = `Runsheet ${entry.day} (${runsheetEventLabels[entry.event].toLowerCase()})`;
    return {
      key: entry.key,
      event: entry.event,
      eventLabel: runsheetEventLabels[entry.event],
      date: placed(entry.date, `${at}.date`, `${name}: date`),
      party: placed(entry.party, `${at}.party`, `${name}: ${entry.party.label.toLowerCase()}`),
      price: entry.price ? placed(entry.price, `${at}.price`, `${name}: price`) : null,
      detail: entry.detail,
      recordRef: entry.recordRef,
      conflict: entry.conflict,
    };
  });
  const gaps: Limitation[] = sheet.gaps.map((gap) => ({ text: gap, citationIds: gapCitations(gap, sheet.entries) }));
  return { parcelRef, parcel: sheet.parcel, entries, gaps, problems: sheet.problems };
}

// ---------------------------------------------------------------------------------------------
// The section

/**
 * The title research of the subject from the assignment's kept answers and decisions; null when none
 * of the answers is about the subject and no decision is kept (an assignment without title research).
 */
export function titleResearchSection(input: TitleResearchInput, subject: TitleResearchSubject, cite: Cite): TitleResearchSection | null {
  const classified = classify(input.answers);
  const graphAnswers = subjectGraphAnswers(subject.subjectRef, classified.graph);
  const problems: string[] = [];
  const missing: string[] = [];
  const part = graphAnswers.length > 0 ? graphPart(subject.subjectRef, graphAnswers, input.decisions, cite, problems) : null;
  if (part === null) missing.push('No graph of the subject is in this assignment: open the Graph view from the subject (free) to draw it.');

  const graphOwnerId = part ? graphOwner(part.model, part.links) : null;
  const reportOwner = subject.owner && subject.owner.status !== 'unavailable' && typeof subject.owner.raw === 'string' ? subject.owner : null;
  const owner = graphOwnerId
    ? { key: graphOwnerId.slice('owner:'.length), name: nodeName(part!.model, graphOwnerId).label, citationIds: ownerCitations(part!.model, graphOwnerId, cite) }
    : reportOwner
      ? { key: ownerNameKey(String(reportOwner.raw)), name: String(reportOwner.raw), citationIds: [...reportOwner.citationIds] }
      : null;
  const ownerId = owner ? ownerNodeId(owner.name) : null;
  const portfolio = owner && ownerId ? portfolioPart(subject.subjectRef, owner, classified.ownerSearches, cutOwnerLinks(part, ownerId), cite) : null;
  // A cut of the subject's own link to its owner of record is the researcher's word against the record: said, not hidden.
  const subjectReach = part ? factReach(part.model.rootId, part.links) : new Map<string, number>();
  const subjectOwnLink = (link: TitleResearchLink) => link.toId === ownerId && link.rule === 'owner_of_record' && subjectReach.has(link.fromId);
  if (ownerId && part?.graph.links.some((link) => subjectOwnLink(link) && link.decision?.decision === 'cut')) {
    problems.push('The researcher cut the link between the subject and its owner of record: the portfolio below is of the name the ownership record publishes.');
  }
  if (owner === null) missing.push('The answers name no owner of record for the subject, so no owner portfolio is listed.');
  else if (portfolio === null) missing.push('No search of the owner of record’s holdings is in this assignment: search the owner’s name in the Owners view (priced before it runs) to list the portfolio.');

  const parcelRef = subjectParcel(subject, part, classified);
  const runsheet = parcelRef ? runsheetPart(parcelRef, classified, cite) : null;
  if (parcelRef === null) missing.push('The answers do not name the subject’s parcel, so no runsheet is listed: open the subject’s graph or its parcel (free).');
  else if (runsheet === null) {
    const label = part && part.model.entities.has(parcelRef) ? nodeName(part.model, parcelRef).label : 'the subject’s parcel';
    missing.push(`No record of ${label} is in this assignment: open the parcel (free) to list its runsheet.`);
  }

  // Every decision is listed, in the order made: one on a link this graph does not hold is kept, never dropped.
  const model = part?.model ?? emptyGraph(subject.subjectRef);
  const drawn = new Set(part?.graph.links.map((link) => link.key) ?? []);
  const decisions: TitleResearchDecision[] = [...input.decisions]
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
    .map((decision) => ({ ...decision, onGraph: drawn.has(decision.edgeKey), description: describeLinkKey(model, decision.edgeKey) }));
  if (part === null && portfolio === null && runsheet === null && decisions.length === 0) return null;
  return { title: TITLE_RESEARCH_TITLE, graph: part?.graph ?? null, decisions, portfolio, runsheet, missing, problems };
}

// ---------------------------------------------------------------------------------------------
// Reading the section back: its printed values and its citations, in print order

/** Every cited value the section prints, in the order a reader meets them: the portfolio's holdings and total, then the runsheet. */
export function titleResearchValues(section: TitleResearchSection): CitedValue[] {
  const values: CitedValue[] = [];
  for (const row of section.portfolio?.holdings ?? []) values.push(row.address, row.identifier, row.use, row.assessed, row.lastSalePrice, row.lastSaleDate);
  if (section.portfolio) values.push(section.portfolio.totalAssessed);
  for (const entry of section.runsheet?.entries ?? []) values.push(entry.date, entry.party, ...(entry.price ? [entry.price] : []));
  return values;
}

/** The citation ids the section prints, in order of first use: the entities, the links, the portfolio, the runsheet and its gaps. */
export function titleResearchCitationOrder(section: TitleResearchSection): string[] {
  const { ids, use } = citationOrder();
  for (const node of section.graph?.nodes ?? []) use(node.citationIds);
  for (const link of section.graph?.links ?? []) use(link.citationIds);
  const portfolio = section.portfolio;
  if (portfolio) {
    use(portfolio.ownerCitationIds);
    for (const variant of portfolio.variants) use(variant.citationIds);
    for (const row of portfolio.holdings) [row.address, row.identifier, row.use, row.assessed, row.lastSalePrice, row.lastSaleDate].forEach((value) => use(value.citationIds));
    use(portfolio.totalAssessed.citationIds);
    for (const other of portfolio.otherOwners) use(other.citationIds);
  }
  for (const entry of section.runsheet?.entries ?? []) [entry.date, entry.party, ...(entry.price ? [entry.price] : [])].forEach((value) => use(value.citationIds));
  for (const gap of section.runsheet?.gaps ?? []) use(gap.citationIds);
  return ids;
}
