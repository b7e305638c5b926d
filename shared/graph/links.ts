// Every link of a graph model, classified once for the drawing, the table and "why linked": the rule
// that made it, fact or lead, and its confidence. A fact is what the records themselves say (one record
// names both ends; both carry the same SSL; the record of a holding reached by facts names its owner).
// A lead is an inference to be confirmed: the same owner name after normalisation (different people
// share names), an address match, a confidence below 1, or a link through a key that is not a valid
// parcel key (SSL 0000 0000 joins permits at unrelated addresses).
import type { GraphModel, LinkInfo, OwnerClaim } from './build-graph.ts';
import type { LinkStrength } from './graph-spec.ts';
import { entityName, OWNED_BY, ownerNameKey, relationLabel, type EntityName } from './relations.ts';

export type LinkRule = 'same_record' | 'same_ssl' | 'owner_of_record' | 'same_owner_name' | 'address_match' | 'invalid_key' | 'unstated';

/** How each rule is named wherever a link is shown: the Graph view, its table, the report. */
export const linkRuleLabels: Record<LinkRule, string> = {
  same_record: 'One record names both',
  same_ssl: 'Same SSL',
  owner_of_record: 'Owner of record',
  same_owner_name: 'Same owner name',
  address_match: 'Address match',
  invalid_key: 'Through a key that is not valid',
  unstated: 'Not stated by the service',
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
  /** For an owner link: the ownership record naming the owner, and the first record naming it that is a fact here. */
  owner: { ownerId: string; claim: OwnerClaim; anchor: OwnerClaim | null } | null;
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

const RULE_OF_METHOD: Record<string, LinkRule> = {
  same_row: 'same_record',
  ssl_match: 'same_ssl',
  address_match: 'address_match',
  owner_name_match: 'same_owner_name',
};

function serviceRule(link: LinkInfo, invalidKey: string | null): { rule: LinkRule; strength: LinkStrength } {
  if (invalidKey !== null) return { rule: 'invalid_key', strength: 'lead' };
  const rule = link.predicate === 'same_owner' ? 'same_owner_name' : link.method === null ? 'unstated' : (RULE_OF_METHOD[link.method] ?? 'unstated');
  const lead = rule === 'same_owner_name' || rule === 'address_match' || (link.confidence !== null && link.confidence < 1);
  return { rule, strength: lead ? 'lead' : 'fact' };
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
  // The records of holdings the root reaches through facts alone speak for the root; an owner root reaches none.
  const reached = model.owners.has(model.rootId) ? new Set([model.rootId]) : new Set(distancesFrom(model.rootId, links.filter((link) => link.strength === 'fact')).keys());
  for (const [ownerId, claims] of model.owners) {
    const anchor = [...claims.values()].find((claim) => reached.has(claim.holdingId)) ?? null;
    for (const [claimKey, claim] of claims) {
      if (!model.entities.has(claim.holdingId)) continue;
      const fact = reached.has(claim.holdingId);
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
        owner: { ownerId, claim, anchor: fact ? claim : anchor },
        invalidKey: null,
      });
    }
  }
  return links;
}
