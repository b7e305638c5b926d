// The find box as pure functions: what a person typed is read as one kind of thing (a street address,
// a DC SSL, an Alexandria account number, a DC MAR id, an entity id, or an owner's name), said in
// words before anything is priced, turned into the one request that resolves it (v2 resolutions, or
// the owners' v2 property search) in its canonical form, and its answer listed as candidates, one per
// property, with kind, address and identifier. Anything that cannot name a record is refused here,
// with the reason, before it is priced or sent.
import { nonLatinLetters } from '../../../shared/latin-fold.ts';
import { canonicalIdentifier, identifierProblem, withoutLocality } from '../../../shared/service/identifiers.ts';
import type { V2Candidate, V2IdentifierScheme, V2ResolutionItemInput, V2ResolutionResult } from '../../../shared/service/index.ts';
import { candidateTotal, identityText, isSsl, reasonOf, resolutionItemFor } from '../../components/identifier-resolution.ts';
import { readRole, type RecordFieldRole } from '../../../shared/service/record-fields.ts';
import { ownerNameProblem, ownerSearchBody, ownerSpellingNote, type Holding, type OwnerArea } from '../../components/owner-lookup.ts';

/** Longer than any address, SSL, account number, entity id or owner name on the rolls. */
export const FIND_MAX = 200;
/** Candidates asked for in one resolution (the price is per resolved item, not per candidate). */
export const FIND_CANDIDATE_LIMIT = 20;

export type FindKind = V2IdentifierScheme | 'owner';

export const findKinds: readonly FindKind[] = ['address', 'ssl', 'account_no', 'mar_id', 'entity_ref', 'owner'];

/** What the box says it understood ("address", "SSL", "owner"…). */
export const findKindLabel: Record<FindKind, string> = {
  address: 'address',
  ssl: 'SSL',
  account_no: 'Alexandria account number',
  mar_id: 'DC MAR id',
  entity_ref: 'entity id',
  owner: 'owner',
};

export interface FindArea {
  areaUid: string;
  name: string;
}

export const DC_AREA: FindArea = { areaUid: 'area_us_dc', name: 'Washington, DC' };
export const ALEXANDRIA_AREA: FindArea = { areaUid: 'area_us_va_alexandria', name: 'Alexandria, VA' };

export type FindRequest =
  | { operation: 'resolveEntities'; request: { body: { items: V2ResolutionItemInput[]; candidate_limit: number } } }
  | { operation: 'searchProperties'; request: { body: ReturnType<typeof ownerSearchBody> } };

/** What the typed text was read as and what will be asked, or why nothing can be asked. */
export type FindReading =
  | { status: 'empty' }
  | { status: 'refused'; kind: FindKind | null; problem: string }
  | {
      status: 'ready';
      kind: FindKind;
      /** True when the kind was detected, not chosen by hand. */
      detected: boolean;
      /** What is sent, in the canonical form every way of typing it shares ("1708 21ST ST NW"). */
      sent: string;
      /** The area the search is confined to (from a city or state typed, the kind, or the owner coverage), or null for any. */
      area: FindArea | null;
      /** More said about the reading: accents ignored, the city taken as the area. */
      note: string | null;
      ask: FindRequest;
    };

const ENTITY_REF = /^[a-z]{2,8}_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DIGITS = /^[\d\s-]+$/;

/** The kind a text most likely is. Digits alone: 8 are an Alexandria account, fewer a DC MAR id. */
export function detectFindKind(text: string): FindKind {
  const value = text.trim();
  if (ENTITY_REF.test(value)) return 'entity_ref';
  if (isSsl(value) || isSsl(value.replace(/\s*\/\s*/, ' '))) return 'ssl';
  if (DIGITS.test(value) && /\d/.test(value)) {
    const digits = value.replace(/\D/g, '');
    return digits.length >= 8 ? 'account_no' : 'mar_id';
  }
  // A house number then words is an address; words alone are a name.
  if (/\d/.test(value) && /\p{L}/u.test(value)) return 'address';
  return 'owner';
}

/** The area a typed city or state names ("…, Washington DC", "… Alexandria VA"), or null. */
export function areaNamedIn(text: string): FindArea | null {
  const upper = text.toUpperCase().replace(/[.,]/g, ' ').replace(/\s+/g, ' ').trim();
  const rest = withoutLocality(text);
  if (rest === upper) return null;
  const locality = upper.slice(rest.length);
  if (/\b(?:WASHINGTON|DC|D C|DISTRICT OF COLUMBIA)\b|\b20[0-5]\d{2}\b/.test(locality)) return DC_AREA;
  if (/\b(?:ALEXANDRIA|VA|VIRGINIA)\b|\b22[0-3]\d{2}\b/.test(locality)) return ALEXANDRIA_AREA;
  return null;
}

const areaOfKind: Partial<Record<FindKind, FindArea>> = { ssl: DC_AREA, mar_id: DC_AREA, account_no: ALEXANDRIA_AREA };

/**
 * Reads the typed text. `chosen` is a kind picked by hand (it wins over the detected one);
 * `ownerAreas` are the areas whose rolls publish owner names (the owners' coverage), searched for an owner.
 */
export function readFind(text: string, options: { chosen?: FindKind | null; ownerAreas?: ReadonlyArray<Pick<OwnerArea, 'areaUid' | 'name'>> } = {}): FindReading {
  const value = text.trim();
  if (value === '') return { status: 'empty' };
  if (value.length > FIND_MAX) {
    return {
      status: 'refused',
      kind: null,
      problem: `That is ${value.length.toLocaleString('en-US')} characters; a find takes at most ${FIND_MAX} (one address, SSL, account number, entity id or owner name). Nothing was priced or sent.`,
    };
  }
  const foreign = nonLatinLetters(value);
  if (foreign.length > 0) {
    return {
      status: 'refused',
      kind: null,
      problem: `The property records in Plat’s sample are written in Latin letters and digits (${foreign.slice(0, 6).join(' ')}${foreign.length > 6 ? ' …' : ''} ${foreign.length === 1 ? 'is not a Latin letter' : 'are not Latin letters'}). Type the address or name as the record prints it. Nothing was priced or sent.`,
    };
  }
  const detected = detectFindKind(value);
  const kind = options.chosen ?? detected;
  const byHand = options.chosen !== null && options.chosen !== undefined && options.chosen !== detected;

  if (kind === 'owner') {
    const problem = ownerNameProblem(value);
    if (problem) return { status: 'refused', kind, problem };
    // Coverage not read (it may cost on this service, and is bought in the Owners view) is not "none".
    if (options.ownerAreas === undefined) {
      return { status: 'refused', kind, problem: 'Which areas publish owner names is not known yet: the Owners view reads the service’s coverage, with its price shown first.' };
    }
    const area = options.ownerAreas[0];
    if (!area) return { status: 'refused', kind, problem: 'No area in the service’s coverage publishes owner names, so an owner cannot be looked up.' };
    const spelling = ownerSpellingNote(value);
    const others = (options.ownerAreas?.length ?? 0) > 1 ? ` (owner names are looked up in ${area.name}; the Owners view searches the others)` : '';
    return {
      status: 'ready',
      kind,
      detected: !byHand,
      sent: value.toUpperCase().replace(/\s+/g, ' '),
      area: { areaUid: area.areaUid, name: area.name },
      note: [spelling, others.trim() === '' ? null : others.trim()].filter((part) => part !== null).join('; ') || null,
      ask: { operation: 'searchProperties', request: { body: ownerSearchBody(area.areaUid, value) } },
    };
  }

  const problem = identifierProblem(kind, value) ?? schemeShapeProblem(kind, value);
  if (problem) return { status: 'refused', kind, problem: sentence(problem) };
  const named = kind === 'address' ? areaNamedIn(value) : null;
  const area = named ?? areaOfKind[kind] ?? null;
  const sent = canonicalIdentifier(kind, value);
  const item = resolutionItemFor(kind, sent, 'find', area?.areaUid ?? '');
  if (typeof item === 'string') return { status: 'refused', kind, problem: sentence(item) };
  return {
    status: 'ready',
    kind,
    detected: !byHand,
    sent,
    area,
    note: named ? `${named.name} read as the area` : null,
    ask: { operation: 'resolveEntities', request: { body: { items: [item], candidate_limit: FIND_CANDIDATE_LIMIT } } },
  };
}

/** Why a text cannot be a value of the kind (a hand-picked kind may not fit), or null. */
function schemeShapeProblem(kind: V2IdentifierScheme, value: string): string | null {
  switch (kind) {
    case 'ssl':
      return isSsl(value) || isSsl(value.replace(/\s*\/\s*/, ' ')) ? null : 'Not an SSL: a square and a lot, e.g. 0065 0007.';
    case 'account_no':
      return DIGITS.test(value) ? null : 'Not an account number: digits only, e.g. 13195000.';
    case 'mar_id':
      return DIGITS.test(value) ? null : 'Not a MAR id: digits only, e.g. 309673.';
    case 'entity_ref':
      return ENTITY_REF.test(value) ? null : 'Not an entity id: a prefix and a uuid, e.g. prop_0b0c…';
    case 'address':
      if (!/\p{L}/u.test(value)) return 'Not an address: it has no street name.';
      if (!/\d/.test(value)) return 'Not an address: it has no house number (for a name, read it as an owner).';
      return null;
  }
}

/** A schema or service reason as a sentence: capitalised, ending with a full stop. */
function sentence(text: string): string {
  const trimmed = text.trim().replace(/^value:\s*/i, '').replace(/^identifiers\.0\.value:\s*/i, '');
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

// ---------------------------------------------------------------------------------------------
// Candidates

export interface FindCandidate {
  key: string;
  /** What opens: the property when the service named one, else the candidate itself. */
  openId: string;
  /** The kinds that matched, in the service's order ("property", "address"). */
  kinds: string[];
  address: string | null;
  /** SSL or account number as published ("0065    0007"), or null. */
  identifier: string | null;
  /** The owner as published, when the answer (or the property's free record) gave one. */
  owner: string | null;
  /** The property the candidate stands for, whose free record can name the owner. */
  propertyRef: string | null;
  /** "address exact", "SSL exact"… */
  basis: string | null;
  /** For an owner find: the holding, whose values carry their citations. */
  holding: Holding | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** A value of a candidate's identity (a shape the spec does not show) by its role: `owner_name`, `OWNERNAME` and `owner` alike. */
function identityValue(identity: Record<string, unknown>, role: RecordFieldRole): string | null {
  const read = readRole(identity, role);
  return read.status === 'found' ? text(String(read.value)) : null;
}

/**
 * A resolution's candidates, one per property: the service lists a property with its address, parcel
 * and tax account, which all open the same page. A candidate standing for several properties (a
 * condominium building's address) stays on its own row and opens itself.
 */
export function resolutionCandidates(result: V2ResolutionResult): FindCandidate[] {
  const rows: FindCandidate[] = [];
  const byProperty = new Map<string, FindCandidate>();
  for (const candidate of result.candidates) {
    const identity = (candidate.canonical_identity ?? {}) as Record<string, unknown>;
    const propertyRef = text(candidate.property_ref) ?? (candidate.entity_kind === 'property' ? candidate.entity_ref : null);
    const kind = candidate.entity_kind.replace(/_/g, ' ');
    const existing = propertyRef ? byProperty.get(propertyRef) : undefined;
    if (existing) {
      if (!existing.kinds.includes(kind)) existing.kinds.push(kind);
      existing.address ??= identityValue(identity, 'address');
      existing.identifier ??= identityValue(identity, 'ssl') ?? identityValue(identity, 'account_no');
      existing.owner ??= identityValue(identity, 'owner_name');
      continue;
    }
    const row: FindCandidate = {
      key: propertyRef ?? candidate.entity_ref,
      openId: propertyRef ?? candidate.entity_ref,
      kinds: [kind],
      address: identityValue(identity, 'address'),
      identifier: identityValue(identity, 'ssl') ?? identityValue(identity, 'account_no'),
      owner: identityValue(identity, 'owner_name'),
      propertyRef,
      basis: basisWords(candidate),
      holding: null,
    };
    if (!row.address && !row.identifier) row.address = identityText(identity) || null;
    rows.push(row);
    if (propertyRef) byProperty.set(propertyRef, row);
  }
  return rows;
}

function basisWords(candidate: V2Candidate): string | null {
  const basis = text(candidate.match_basis);
  return basis ? basis.replace(/_/g, ' ').replace(/\bssl\b/, 'SSL').replace(/\bmar id\b/, 'MAR id') : null;
}

/** An owner search's holdings as candidates (each opens its parcel or unit, as in the Owners view). */
export function holdingCandidates(holdings: readonly Holding[]): FindCandidate[] {
  return holdings.map((holding) => ({
    key: holding.propertyRef,
    openId: holding.openId,
    kinds: [holding.openKind],
    address: holding.address?.text ?? null,
    identifier: holding.identifier?.text ?? null,
    owner: holding.owner?.text ?? holding.ownerName,
    propertyRef: holding.propertyRef,
    basis: 'owner name contains',
    holding,
  }));
}

/** What the service said about the item, when it found nothing or refused it. */
export function resolutionOutcome(result: V2ResolutionResult | undefined): { found: number; total: number; reason: string | null; outcome: string | null } {
  if (!result) return { found: 0, total: 0, reason: null, outcome: null };
  return { found: result.candidates.length, total: candidateTotal(result), reason: reasonOf(result), outcome: result.outcome };
}
