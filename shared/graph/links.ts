// Every link of a graph model, classified once for the drawing, the table and "why linked": the rule
// that made it, fact or lead, and its confidence, decided from the link's own evidence (its rule and
// the records behind it) and never from the root the graph was drawn from. A fact is what the records
// themselves say (one record names both ends; both carry the same SSL; a holding's ownership record
// prints the owner's name as the owner node reads it). A lead is to be confirmed: the same owner name
// only after normalisation (different people share names), an address match, a confidence below 1, a
// link through a key that is not a valid parcel key (SSL 0000 0000 joins permits at unrelated
// addresses), or a link the service states without saying by what rule. What the root reaches through
// facts is a separate question, answered by factReach alone.
import type { GraphModel, LinkInfo, OwnerClaim } from './build-graph.ts';
import type { LinkStrength } from './graph-spec.ts';
import { entityName, OWNED_BY, ownerNameKey, relationLabel, shortId, type EntityName } from './relations.ts';

export type LinkRule = 'same_record' | 'same_ssl' | 'owner_of_record' | 'same_owner_name' | 'address_match' | 'invalid_key' | 'unstated';

/** How each rule is named wherever a link is shown: the Graph view, its table, the report. */
export const linkRuleLabels: Record<LinkRule, string> = {
  same_record: 'One record names both',
  same_ssl: 'Same SSL',
  owner_of_record: 'Owner of record',
  same_owner_name: 'Same owner name',
  address_match: 'Address match',
  invalid_key: 'Through a key that is not valid',
  unstated: 'Stated by the service, rule not given',
};

export interface ModelLink {
  key: string;
  source: string;
  target: string;
  predicate: string;
  /** Reads source → target. */
  label: string;
  rule: LinkRule;
  strength: LinkStrength;
  confidence: number | null;
  /** The service's link; null for Plat's owner links. */
  service: LinkInfo | null;
  /** For an owner link: the ownership record naming the owner, and the spelling the owner node is named by. */
  owner: { ownerId: string; claim: OwnerClaim; named: string } | null;
  /** Why an end's key cannot be trusted, when one cannot. */
  invalidKey: string | null;
}

/** The key of an owner link: by the ownership record that names the owner, so it survives the holding it hangs on. */
export const ownerLinkKey = (claimKey: string, ownerId: string): string => `${OWNED_BY}:${claimKey}→${ownerId}`;

/** The published spellings of an owner group, most used first (ties: first seen). */
export function ownerVariants(claims: Iterable<OwnerClaim>): Array<{ published: string; count: number }> {
  const counts = new Map<string, number>();
  for (const claim of claims) counts.set(claim.published, (counts.get(claim.published) ?? 0) + 1);
  return [...counts].map(([published, count]) => ({ published, count })).sort((a, b) => b.count - a.count);
}

/** The name a node is drawn and listed under. */
export function nodeName(model: GraphModel, id: string): EntityName {
  const claims = model.owners.get(id);
  if (claims) {
    const variants = ownerVariants(claims.values());
    const holdings = new Set([...claims.values()].map((claim) => claim.holdingId)).size;
    const name = entityName({ id, kind: 'owner', identifiers: [], ownerName: variants[0]?.published ?? null });
    const spellings = variants.length > 1 ? ` · ${variants.length} published spellings` : '';
    return { ...name, sublabel: `Owner · ${holdings} ${holdings === 1 ? 'holding' : 'holdings'} in these answers${spellings}` };
  }
  const entity = model.entities.get(id);
  if (!entity) return entityName({ id, kind: 'record', identifiers: [] });
  const name = entityName({ id, kind: entity.kind, identifiers: entity.identifiers, recordKind: entity.recordKind });
  // No identifier to name it by: the service's own label is what a person recognises, not the id.
  if (entity.identifiers.length === 0 && entity.label) return { ...name, label: entity.label, sublabel: name.sublabel.split(' · ')[0] ?? name.sublabel };
  return name;
}

/**
 * A link by its key alone (a decision on a link this graph does not draw), in words: its relation
 * and its two ends by the names this graph gives them, an owner by its name, else a short id.
 */
export function describeLinkKey(model: GraphModel, key: string): string {
  const match = /^([^:]+):(.*)→(.*)$/.exec(key);
  if (!match) return key;
  const [, predicate = '', from = '', to = ''] = match;
  const name = (id: string) => (model.entities.has(id) || model.owners.has(id) ? nodeName(model, id).label : id.startsWith('owner:') ? id.slice('owner:'.length) : shortId(id));
  return `${name(from)} — ${relationLabel(predicate, 'out')} → ${name(to)}`;
}

const RULE_OF_METHOD: Record<string, LinkRule> = {
  same_row: 'same_record',
  ssl_match: 'same_ssl',
  address_match: 'address_match',
  owner_name_match: 'same_owner_name',
};

function serviceRule(link: LinkInfo, invalidKey: string | null): { rule: LinkRule; strength: LinkStrength } {
  if (invalidKey !== null) return { rule: 'invalid_key', strength: 'lead' };
  const rule = link.predicate === 'same_owner' ? 'same_owner_name' : link.method === null ? 'unstated' : (RULE_OF_METHOD[link.method] ?? 'unstated');
  // Only a rule the service names can make a fact: Plat does not promote a bare statement to one.
  const fact = rule === 'same_record' || rule === 'same_ssl';
  return { rule, strength: fact && (link.confidence === null || link.confidence >= 1) ? 'fact' : 'lead' };
}

/** How many links each node is from the root, along the given links in either direction; unreached nodes are absent. */
export function distancesFrom(rootId: string | undefined, links: ReadonlyArray<{ source: string; target: string }>): Map<string, number> {
  const neighbours = new Map<string, string[]>();
  const add = (from: string, to: string) => {
    const list = neighbours.get(from);
    if (list) list.push(to);
    else neighbours.set(from, [to]);
  };
  for (const link of links) {
    add(link.source, link.target);
    add(link.target, link.source);
  }
  const depth = new Map<string, number>(rootId === undefined ? [] : [[rootId, 0]]);
  const queue = rootId === undefined ? [] : [rootId];
  for (let at = 0, id = queue[0]; id !== undefined; id = queue[++at]) {
    for (const next of neighbours.get(id) ?? []) {
      if (depth.has(next)) continue;
      depth.set(next, (depth.get(id) ?? 0) + 1);
      queue.push(next);
    }
  }
  return depth;
}

/** A link as factReach reads it: its ends, its strength, and the researcher's decision on it when one is kept. */
export interface ReachLink {
  source: string;
  target: string;
  strength: LinkStrength;
  decision?: 'confirmed' | 'cut' | null;
}

/**
 * How many links each entity is from the root along facts alone (and leads the researcher confirmed,
 * never a cut link); unreached entities are absent. An owner node is reached but not passed through
 * unless it is the root: holdings that share a name are not shown by the records to share an owner.
 * The one place "reached from the root through facts" is decided.
 */
export function factReach(rootId: string, links: readonly ReachLink[]): Map<string, number> {
  const usable = links.filter((link) => (link.decision ?? null) !== 'cut' && (link.strength === 'fact' || link.decision === 'confirmed'));
  const throughOwner = (id: string) => id === rootId || !id.startsWith('owner:');
  const passable = usable.filter((link) => throughOwner(link.source) && throughOwner(link.target));
  const reach = distancesFrom(rootId, passable);
  // The owner nodes one usable link from a reached entity: reached themselves, as ends only.
  for (const link of usable) {
    for (const [from, to] of [[link.source, link.target], [link.target, link.source]] as const) {
      const at = reach.get(from);
      if (at !== undefined && !throughOwner(to) && (reach.get(to) ?? Number.POSITIVE_INFINITY) > at + 1) reach.set(to, at + 1);
    }
  }
  return reach;
}

/** Every link of the model, service links first (in the order the answers gave them), then owner links. */
export function modelLinks(model: GraphModel): ModelLink[] {
  const invalid = new Map<string, string | null>();
  const invalidOf = (id: string) => {
    if (!invalid.has(id)) invalid.set(id, model.entities.has(id) ? nodeName(model, id).invalidKey : null);
    return invalid.get(id) ?? null;
  };
  const kindOf = (id: string) => model.entities.get(id)?.kind;
  const links: ModelLink[] = [];
  const sameOwnerConfidence = new Map<string, number>();
  for (const link of model.links.values()) {
    if (!model.entities.has(link.subject) || !model.entities.has(link.object)) continue;
    const invalidKey = invalidOf(link.subject) ?? invalidOf(link.object);
    const { rule, strength } = serviceRule(link, invalidKey);
    if (link.predicate === 'same_owner' && link.basis !== null && link.confidence !== null) sameOwnerConfidence.set(ownerNameKey(link.basis), link.confidence);
    links.push({
      key: link.key,
      source: link.subject,
      target: link.object,
      predicate: link.predicate,
      label: relationLabel(link.predicate, 'out', kindOf(link.object)),
      rule,
      strength,
      confidence: link.confidence,
      service: link,
      owner: null,
      invalidKey,
    });
  }
  for (const [ownerId, claims] of model.owners) {
    const named = ownerVariants(claims.values())[0]?.published ?? '';
    for (const [claimKey, claim] of claims) {
      if (!model.entities.has(claim.holdingId)) continue;
      // The record printing the owner's name as the node reads it is the record's own word; a spelling
      // joined to it only by normalisation is Plat's reading, so a lead.
      const fact = claim.published === named;
      links.push({
        key: ownerLinkKey(claimKey, ownerId),
        source: claim.holdingId,
        target: ownerId,
        predicate: OWNED_BY,
        label: relationLabel(OWNED_BY, 'out'),
        rule: fact ? 'owner_of_record' : 'same_owner_name',
        strength: fact ? 'fact' : 'lead',
        confidence: fact ? 1 : (sameOwnerConfidence.get(ownerId.slice('owner:'.length)) ?? null),
        service: null,
        owner: { ownerId, claim, named },
        invalidKey: null,
      });
    }
  }
  return links;
}
