// How links and entities read for a title researcher: every relationship label reads in the direction
// it is shown ("1708 21ST ST NW — taxed under → Account 0065 0007"), links are grouped by relation,
// every entity is named by what a person recognises (address, SSL, account, owner name) with the id
// second, and owner names are put in the one form Plat groups them by. Pure: the entity page, the
// graph, the table and the report all read links through here.
import { foldToLatin } from '../latin-fold.ts';
import { entityKindByPrefix, entityPrefix } from '../service/common.ts';
import { isPlaceholderSsl, parseSsl } from '../service/identifiers.ts';
import { graphNodeKindLabels, graphNodeKinds, type GraphNodeKind } from './graph-spec.ts';
import { NOT_RECOGNISED } from '../service/unrecognised.ts';

// ---------------------------------------------------------------------------------------------
// Relationship labels

/** Plat's own predicate: a holding and the owner its record names (not a service predicate). */
export const OWNED_BY = 'owned_by';

/**
 * Each predicate read both ways: `out` from its subject to its object (how the service states it),
 * `in` from the object back to the subject. A same-owner link says the same thing either way.
 */
const RELATION_WORDS: Record<string, { out: string; in: string }> = {
  located_in: { out: 'located on', in: 'holds' },
  taxed_in: { out: 'taxed under', in: 'taxes' },
  assessed_in: { out: 'assesses', in: 'assessed under' },
  served_by: { out: 'has address', in: 'addresses' },
  permitted_by: { out: 'has permit', in: 'permit for' },
  same_owner: { out: 'same owner name as', in: 'same owner name as' },
  [OWNED_BY]: { out: 'owned by', in: 'owns' },
};

/** A property sits in a unit, not on it: the one object kind that changes the words. */
const UNIT_WORDS = { out: 'located in', in: 'holds' };

export type LinkDirection = 'out' | 'in';


/** Whether Plat has its own words for a predicate (the spec's and Plat's); any other is shown as published. */
export const isKnownPredicate = (predicate: string): boolean => predicate in RELATION_WORDS;

/**
 * The label of a link seen from one end: `out` when that end is the link's subject. `objectKind`
 * picks "located in" for a unit. An unknown predicate is shown as published ("owner_of — not
 * recognised by Plat"), so nobody takes the service's term for Plat's reading; read backwards it says so.
 */
export function relationLabel(predicate: string, direction: LinkDirection, objectKind?: string): string {
  const words = predicate === 'located_in' && objectKind === 'unit' ? UNIT_WORDS : RELATION_WORDS[predicate];
  if (words) return words[direction];
  return direction === 'out' ? `${predicate} — ${NOT_RECOGNISED}` : `${predicate}, read backwards — ${NOT_RECOGNISED}`;
}

/**
 * The words drawn on an edge of the graph: Plat's words, or an unknown predicate as published with
 * no mark. Repeated on every edge the mark covered the drawing; the graph's legend says it once, and
 * the link's panel and the table carry it ({@link relationLabel}).
 */
export function drawnRelationLabel(predicate: string, objectKind?: string): string {
  return isKnownPredicate(predicate) || (predicate === 'located_in' && objectKind === 'unit') ? relationLabel(predicate, 'out', objectKind) : predicate;
}

/** A link as the service states it: from its subject (`source`) to its object (`target`). ModelLink is one. */
export interface RelationLink {
  source: string;
  predicate: string;
  target: string;
}

export interface RelationEntry<L extends RelationLink> {
  link: L;
  /** The entity at the other end, seen from the focus. */
  other: string;
}

export interface RelationGroup<L extends RelationLink> {
  /** `predicate:direction`, stable for keys and filters. */
  key: string;
  predicate: string;
  direction: LinkDirection;
  /** Capitalised, as a group heading: "Taxed under", "Owns". */
  label: string;
  entries: RelationEntry<L>[];
}

const capitalise = (text: string): string => (text === '' ? text : text.charAt(0).toUpperCase() + text.slice(1));

/**
 * The links of one entity grouped by relation as read from it, groups in the order they first
 * appear. `kindOf` gives the kind of an entity (for "located in" a unit).
 */
export function relationGroups<L extends RelationLink>(focusId: string, links: readonly L[], kindOf: (id: string) => string | undefined = () => undefined): RelationGroup<L>[] {
  const groups = new Map<string, RelationGroup<L>>();
  for (const link of links) {
    if (link.source !== focusId && link.target !== focusId) continue;
    const direction: LinkDirection = link.source === focusId ? 'out' : 'in';
    const other = direction === 'out' ? link.target : link.source;
    const key = `${link.predicate}:${direction}`;
    let group = groups.get(key);
    if (!group) {
      // A predicate shown as published keeps its spelling: capitalising it would change what the service wrote.
      const label = relationLabel(link.predicate, direction, kindOf(link.target));
      group = { key, predicate: link.predicate, direction, label: isKnownPredicate(link.predicate) ? capitalise(label) : label, entries: [] };
      groups.set(key, group);
    }
    group.entries.push({ link, other });
  }
  return [...groups.values()];
}

// ---------------------------------------------------------------------------------------------
// Names

export interface Identifier {
  scheme: string;
  value: string;
}

/** What Plat knows about an entity when naming it. */
export interface NameInput {
  id: string;
  kind: GraphNodeKind | 'record';
  identifiers: readonly Identifier[];
  /** For a record: what it is (`permit`). */
  recordKind?: string | null;
  /** For an owner: the name as published (the most used variant). */
  ownerName?: string | null;
}

export interface EntityName {
  /** What a person recognises: the address, "SSL 0065 0007", "Account …", the owner name. */
  label: string;
  /** The kind and a second detail: "Parcel · 1708 21ST ST NW". */
  sublabel: string;
  /** Why the entity's key cannot be trusted to name one piece of land, when it cannot. */
  invalidKey: string | null;
}

/** `0065    0007` → `0065 0007`: the canonical SSL as people write it. */
export function sslText(value: string): string {
  const parsed = parseSsl(value);
  return (parsed?.canonical ?? value.trim()).replace(/\s+/g, ' ');
}

/** Why an SSL cannot key a parcel (a placeholder such as `0000 0000`, or not an SSL at all), or null. */
export function sslProblem(value: string): string | null {
  const parsed = parseSsl(value);
  if (parsed === null) return `"${value.trim()}" is not an SSL: not a valid parcel key.`;
  if (isPlaceholderSsl(parsed)) {
    return `SSL ${sslText(value)} is a placeholder some records carry (square or lot 0000), not a valid parcel key: records joined by it need not be about the same land.`;
  }
  return null;
}

/** `prop_080b9725…`: enough to tell two ids apart; the full id stays copyable beside it. */
export function shortId(id: string): string {
  const match = /^([a-z]+_[0-9a-f]{8})[0-9a-f-]{28}$/.exec(id);
  return match?.[1] ? `${match[1]}…` : id.length > 22 ? `${id.slice(0, 21)}…` : id;
}

/** The graph kind of an entity id, from its prefix; null for a record or an id of no known kind. */
export function kindOfId(id: string): GraphNodeKind | null {
  const prefix = entityPrefix(id);
  const kind = prefix === undefined ? undefined : entityKindByPrefix[prefix];
  return kind !== undefined && (graphNodeKinds as readonly string[]).includes(kind) ? (kind as GraphNodeKind) : null;
}

const first = (identifiers: readonly Identifier[], scheme: string): string | null =>
  identifiers.find((identifier) => identifier.scheme === scheme && identifier.value.trim() !== '')?.value.trim() ?? null;

const joined = (...parts: Array<string | null>): string => parts.filter((part): part is string => part !== null && part !== '').join(' · ');

/** The name of an entity from the identifiers the answers carry; the id only when they carry none. */
export function entityName(input: NameInput): EntityName {
  const { identifiers } = input;
  const address = first(identifiers, 'address');
  const ssl = first(identifiers, 'ssl');
  const account = first(identifiers, 'account_no');
  const invalidKey = ssl !== null && (input.kind === 'parcel' || input.kind === 'unit') ? sslProblem(ssl) : null;
  const sslLabel = ssl === null ? null : `SSL ${sslText(ssl)}`;
  const fallback = (kindLabel: string) => `${kindLabel} ${shortId(input.id)}`;
  switch (input.kind) {
    case 'owner': {
      const name = input.ownerName?.trim() || '(no owner name published)';
      return { label: name, sublabel: 'Owner', invalidKey: null };
    }
    case 'record': {
      const permit = first(identifiers, 'permit_id');
      const what = input.recordKind?.trim() || 'record';
      const label = permit ? `${capitalise(what)} ${permit}` : `${capitalise(what)} record ${shortId(input.id)}`;
      return { label, sublabel: joined(`${capitalise(what)} record`, address), invalidKey: null };
    }
    case 'parcel': {
      if (invalidKey !== null && sslLabel !== null) return { label: `${sslLabel}: not a valid parcel key`, sublabel: joined('Parcel', 'placeholder key'), invalidKey };
      const label = sslLabel ?? (account ? `Account ${account}` : null) ?? address ?? fallback('Parcel');
      return { label, sublabel: joined('Parcel', label === address ? null : address), invalidKey };
    }
    case 'tax_account': {
      // DC's tax accounts are keyed by the lot's SSL; Alexandria's by an account number.
      const number = account ?? (ssl === null ? null : sslText(ssl));
      return { label: number === null ? fallback('Tax account') : `Account ${number}`, sublabel: joined('Tax account', address), invalidKey: null };
    }
    case 'address': {
      const mar = first(identifiers, 'mar_id');
      return { label: address ?? fallback('Address'), sublabel: joined('Address', mar === null ? null : `MAR ${mar}`), invalidKey: null };
    }
    default: {
      const kindLabel = graphNodeKindLabels[input.kind];
      const label = address ?? sslLabel ?? (account ? `Account ${account}` : null) ?? fallback(kindLabel);
      const detail = label === address ? (sslLabel ?? (account ? `Account ${account}` : null)) : null;
      return { label, sublabel: joined(kindLabel, detail), invalidKey };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Owner names

/**
 * The form Plat groups published owner names by: accents folded, upper case, `&` as `AND`,
 * apostrophes dropped, other punctuation and runs of spaces as one space. Entity suffixes are kept
 * (ACME INC and ACME LLC stay apart); only their spellings are made one (`L.L.C.` → `LLC`,
 * `Incorporated` → `INC`), as the service's same-owner key does. Nothing else: JOHN SMITH and
 * JOHN A SMITH stay apart, because a middle initial may be all that tells two people apart.
 */
export function ownerNameKey(published: string): string {
  let key = foldToLatin(published).replace(/&/g, ' AND ');
  key = key.replace(/['’]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').replace(/\s+/g, ' ').trim();
  key = key.replace(/\bL L C\b/g, 'LLC').replace(/\bLIMITED LIABILITY (?:COMPANY|CO)\b/g, 'LLC');
  // `L P` only at the end: elsewhere it is as likely a person's initials.
  key = key.replace(/\bL L P\b/g, 'LLP').replace(/\bL P$/, 'LP').replace(/\bLIMITED PARTNERSHIP\b/g, 'LP');
  return key.replace(/\bINCORPORATED\b/g, 'INC').replace(/\bCORPORATION\b/g, 'CORP');
}

/** The node id of the owner group of a published name. */
export const ownerNodeId = (published: string): string => `owner:${ownerNameKey(published)}`;
