// "Why linked": a link of the graph explained in plain words. The rule that made it (one record names
// both; both carry the same SSL; the ownership record names the owner; the same owner name after
// normalisation; an address match), the warning a lead carries, the supporting records each with its
// citation, the validity dates the service gives, and the confidence. Pure, so the panel, the table
// and the printed report say the same thing.
import type { CitationView } from '../cited/citation.ts';
import type { Cite } from '../cited/citation-book.ts';
import { formatDay } from '../format-date.ts';
import { asOfRecords, asOfRoll } from '../format/as-of.ts';
import { refCitation, refPlace, type GraphModel, type OwnerClaim } from './build-graph.ts';
import { modelLinks, nodeName, type LinkRule, type ModelLink } from './links.ts';
import { ownerNameKey, sslText } from './relations.ts';
import { graphNodeKindLabels, type GraphNodeKind, type LinkStrength } from './graph-spec.ts';

export interface SupportingRecord {
  recordRef: string;
  /** Publisher and dataset, or that the answers do not say. */
  what: string;
  citationId: string;
}

export interface WhyLinked {
  key: string;
  /** "1708 21ST ST NW — taxed under → Account 0065 0007". */
  title: string;
  rule: LinkRule;
  strength: LinkStrength;
  /** The rule, in plain words about these two entities. */
  because: string;
  /** What a lead asks of the researcher; null for a fact. */
  warning: string | null;
  records: SupportingRecord[];
  /** "As of the records released 2017-02-05; the records give no end date", or that the answers give none. */
  validity: string;
  confidence: number | null;
  confidenceText: string;
  /** The service's own explanation, when it gives one. */
  serviceSays: string | null;
}

const NAME_WARNING =
  'A lead, not a fact: different people and companies can share a name. Confirm it from a deed, the tax bill’s mailing address or the owner before relying on it.';
const ADDRESS_WARNING = 'A lead, not a fact: an address match can join different lots at one address (a building, a corner lot, a range of numbers).';
const NORMALISATION = 'after normalisation (case, spacing and punctuation ignored, & read as AND, INC/LLC kept)';

function describe(view: CitationView | undefined): string {
  if (!view) return 'Source not named in the answers';
  const source = [view.publisher, view.dataset].filter((part): part is string => part !== null).join(', ');
  return source === '' ? (view.sourceId ?? 'Source not named in the answers') : source;
}

function supporting(model: GraphModel, refs: readonly string[], cite: Cite): SupportingRecord[] {
  return [...new Set(refs)].map((recordRef) => {
    return { recordRef, what: describe(refPlace(model, recordRef)?.view), citationId: cite(refCitation(model, recordRef)) };
  });
}

/** The SSL both ends carry, when they carry one. */
function sharedSsl(model: GraphModel, a: string, b: string): string | null {
  const ssls = (id: string) => model.entities.get(id)?.identifiers.filter((i) => i.scheme === 'ssl').map((i) => sslText(i.value)) ?? [];
  const theirs = ssls(b);
  return ssls(a).find((ssl) => theirs.includes(ssl)) ?? null;
}

function ownerBecause(model: GraphModel, link: ModelLink, claim: OwnerClaim, named: string): string {
  const holding = nodeName(model, claim.holdingId).label;
  if (link.rule === 'owner_of_record') return `The ownership record of ${holding} names “${claim.published}” as its owner.`;
  return `Same owner name after normalisation: the ownership record of ${holding} names “${claim.published}”, which reads “${ownerNameKey(claim.published)}” ${NORMALISATION}, as does “${named}”, the name this owner is grouped under.`;
}

function serviceBecause(model: GraphModel, link: ModelLink): string {
  const service = link.service;
  let a = nodeName(model, link.source).label;
  let b = nodeName(model, link.target).label;
  // A property and its address often read the same: then the kinds tell them apart.
  if (a === b) {
    a = `the ${kindOf(model, link.source)} ${a}`;
    b = `the ${kindOf(model, link.target)} ${b}`;
  }
  const record = describe(service?.sourceRefs[0] ? refPlace(model, service.sourceRefs[0])?.view : undefined);
  switch (link.rule) {
    case 'same_record':
      return `One record names both: ${a} and ${b} appear in the same row of ${record}.`;
    case 'same_ssl': {
      const ssl = sharedSsl(model, link.source, link.target);
      return `Same SSL in one record: ${a} and ${b} both carry ${ssl === null ? 'the same SSL' : `SSL ${ssl}`} in ${record}.`;
    }
    case 'same_owner_name':
      return `Same owner name after normalisation: the owners of ${a} and ${b} both read “${service?.basis ?? 'the same name'}” ${NORMALISATION} in ${record}.`;
    case 'address_match':
      return `Address match: ${a} and ${b} have the same address after normalisation (${service?.basis ?? 'address not given'}); no SSL or account ties them.`;
    case 'invalid_key': {
      // Name the end whose key is sound: the other one is the key itself.
      const other = nodeName(model, link.source).invalidKey === null ? a : b;
      return `${link.invalidKey ?? 'A key of this link is not valid.'} The service links ${other} through it.`;
    }
    default:
      return `Stated by the service, rule not given: it lists this link${service?.method ? ` (method “${service.method}”, not one Plat reads as a rule)` : ''} without saying how it made it.`;
  }
}

function warningOf(link: ModelLink): string | null {
  if (link.strength === 'fact') return null;
  if (link.rule === 'same_owner_name') return NAME_WARNING;
  if (link.rule === 'address_match') return ADDRESS_WARNING;
  if (link.rule === 'invalid_key') return `A lead, not a fact: ${link.invalidKey ?? 'the key is not valid.'}`;
  if (link.rule === 'unstated') return 'A lead, not a fact: the service states this link without a rule Plat reads as one (one record naming both, the same SSL). Confirm it from the records before relying on it.';
  return 'A lead, not a fact: the service is not certain of this link (confidence below 1).';
}

function validityOf(link: ModelLink): string {
  if (link.owner) {
    const asOf = link.owner.claim.citation?.asOf;
    return asOf ? `Owner of record ${asOfRoll(asOf)}; the record gives no earlier or later owner.` : 'The answers give no date for this ownership record.';
  }
  const from = link.service?.validFrom ?? null;
  const to = link.service?.validTo ?? null;
  if (from === null && to === null) return 'The answers give no validity dates for this link.';
  // The embedded service dates a link by the release it was read from: an as-of date, not the day the link began.
  if (to === null) return `${capitalised(asOfRecords(from ?? ''))}; the records give no end date.`;
  return from === null ? `Until ${formatDay(to)}.` : `${capitalised(asOfRecords(from))}, until ${formatDay(to)}.`;
}

function confidenceText(link: ModelLink): string {
  if (link.confidence === null) {
    return link.strength === 'lead' ? 'None given: Plat grouped the names itself, and the service gives no confidence for this match.' : 'Not given by the service.';
  }
  if (link.confidence >= 1) return link.strength === 'fact' ? '1 (the records state it).' : '1, as the service gives it; still a lead, for the rule behind it is not one Plat reads.';
  return `${link.confidence} (the service’s estimate for this kind of match; below 1, so a lead).`;
}

/** The explanation of one link of the model, or null when the model has no link under that key. */
export function whyLinked(model: GraphModel, key: string, cite: Cite, links: readonly ModelLink[] = modelLinks(model)): WhyLinked | null {
  const link = links.find((candidate) => candidate.key === key);
  if (!link) return null;
  const refs = link.owner
    ? [link.owner.claim.recordRef].filter((ref): ref is string => ref !== null)
    : (link.service?.sourceRefs ?? []);
  return {
    key,
    title: `${nodeName(model, link.source).label} — ${link.label} → ${nodeName(model, link.target).label}`,
    rule: link.rule,
    strength: link.strength,
    because: link.owner ? ownerBecause(model, link, link.owner.claim, link.owner.named) : serviceBecause(model, link),
    warning: warningOf(link),
    records: supporting(model, refs, cite),
    validity: validityOf(link),
    confidence: link.confidence,
    confidenceText: confidenceText(link),
    serviceSays: link.service?.explanation ?? null,
  };
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function kindOf(model: GraphModel, id: string): string {
  const kind = model.owners.has(id) ? 'owner' : model.entities.get(id)?.kind;
  return kind && kind in graphNodeKindLabels ? graphNodeKindLabels[kind as GraphNodeKind].toLowerCase() : 'record';
}
