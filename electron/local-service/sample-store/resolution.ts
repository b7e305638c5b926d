// Resolution: an address or an identifier to the entities that carry it. The identifier index (every
// scheme's values, and one haystack of addresses for partial matches) is built on first use.
import { AREA_CODES, AREA_DC, ENTITY_PREFIX_KIND, IDENTIFIER_SCHEMES, normaliseAddress, parseSsl } from '../sample-keys.ts';
import type { AreaUid, EntityPrefix, IdentifierScheme } from '../sample-keys.ts';
import { canonicalAddress, canonicalNumber, canonicalSsl, isPlaceholderSsl } from '../../../shared/service/identifiers.ts';
import type { AddressResolution, ResolutionCandidate } from './interface.ts';
import { SampleStoreError } from './interface.ts';
import { compareKeys, OverRows } from './rows.ts';


const KIND_ORDER: Record<EntityPrefix, number> = { addr: 0, prop: 1, unit: 2, parc: 3, acct: 4 };

interface IdentifierIndex {
  /** Per scheme (code - 1): value → entity number(s). */
  exact: Array<Map<string, number | number[]>>;
  /** Distinct address identifier values, alphabetical, with their entities. */
  addresses: Array<{ value: string; entities: readonly number[] }>;
  /** `\n <value> ` per address, concatenated: one native indexOf scans them all. */
  haystack: string;
  starts: Int32Array;
}

export class Resolver extends OverRows {
  private identifierIndex: IdentifierIndex | null = null;

  identifiers(): IdentifierIndex {
    if (this.identifierIndex) return this.identifierIndex;
    const addressScheme = IDENTIFIER_SCHEMES.indexOf('address') + 1;
    // Rows as arrays, streamed: object rows, or all rows at once, cost more than the index itself. The table is clustered by entity.
    // A value held by one entity (most) maps to its number, not to a one-element array.
    const statement = this.reader.db.prepare('SELECT entity_no, scheme, value FROM identifiers');
    statement.setReturnArrays(true);
    const exact = IDENTIFIER_SCHEMES.map(() => new Map<string, number | number[]>());
    for (const [entityNo, scheme, value] of statement.iterate() as unknown as Iterable<[number, number, string]>) {
      const byValue = exact[scheme - 1];
      if (!byValue) continue;
      const held = byValue.get(value);
      if (held === undefined) byValue.set(value, entityNo);
      else if (typeof held === 'number') byValue.set(value, [held, entityNo]);
      else held.push(entityNo);
    }
    // A pushed-to array keeps room for about twenty numbers; most hold two or three (3 MB over all).
    for (const byValue of exact) {
      for (const [value, held] of byValue) if (typeof held !== 'number') byValue.set(value, held.slice());
    }
    const addressEntities = [...(exact[addressScheme - 1] ?? new Map<string, number | number[]>())].map(([value, held]) => [value, entityList(held)] as const);
    const addresses = addressEntities.map(([value, entities]) => ({ value, entities })).sort((a, b) => compareKeys(a.value, b.value));
    const starts = new Int32Array(addresses.length);
    const parts: string[] = [];
    let offset = 0;
    addresses.forEach((a, k) => {
      starts[k] = offset;
      const part = `\n ${a.value} `;
      parts.push(part);
      offset += part.length;
    });
    this.identifierIndex = { exact, addresses, haystack: parts.join(''), starts };
    return this.identifierIndex;
  }

  private candidate(entityNo: number, match: ResolutionCandidate['match'], scheme: IdentifierScheme, value: string, method: string): ResolutionCandidate {
    const prefix = this.reader.prefixOfNo(entityNo);
    return {
      entity_id: this.reader.entityIdOf(entityNo), entity_kind: ENTITY_PREFIX_KIND[prefix], prefix,
      area_uid: (AREA_CODES[(this.reader.entityMeta().area[entityNo] ?? 1) - 1] ?? AREA_DC) as AreaUid, match, scheme, matched_value: value,
      precision: match === 'exact' ? 'exact' : 'approximate', method,
    };
  }

  private entityInArea(entityNo: number, areaUid: string | undefined): boolean {
    if (areaUid === undefined) return true;
    return AREA_CODES[(this.reader.entityMeta().area[entityNo] ?? 1) - 1] === areaUid;
  }

  resolveAddress(text: string, options: { areaUid?: string; limit?: number } = {}): AddressResolution {
    const limit = options.limit ?? 20;
    // The request schemas send this form already; a caller that did not is read the same way.
    const normalised = normaliseAddress(canonicalAddress(text));
    if (!normalised) return { input: text, normalised: null, candidates: [], total: 0 };
    const index = this.identifiers();
    const scheme = IDENTIFIER_SCHEMES.indexOf('address') + 1;
    // rank: 0 exact, 1 premise, 2 partial at the start of an address, 3 partial inside one.
    const hits: Array<{ no: number; rank: number; value: string }> = [];
    const seen = new Set<number>();
    const add = (no: number, rank: number, value: string) => {
      if (seen.has(no) || !this.entityInArea(no, options.areaUid)) return;
      seen.add(no);
      hits.push({ no, rank, value });
    };
    const byAddress = index.exact[scheme - 1];
    for (const no of entityList(byAddress?.get(normalised.full))) add(no, 0, normalised.full);
    if (normalised.unit !== null) for (const no of entityList(byAddress?.get(normalised.premise))) add(no, 1, normalised.premise);
    if (hits.length === 0) {
      // Partial: the typed text at a word start inside a normalised address.
      const needle = ` ${normalised.full}`;
      let at = index.haystack.indexOf(needle);
      while (at >= 0) {
        const k = upperBound(index.starts, at) - 1;
        const entry = index.addresses[k];
        if (!entry) break;
        for (const no of entry.entities) add(no, at === (index.starts[k] ?? 0) + 1 ? 2 : 3, entry.value);
        const next = index.starts[k + 1];
        if (next === undefined) break;
        at = index.haystack.indexOf(needle, next);
      }
    }
    hits.sort((a, b) => a.rank - b.rank || compareKeys(a.value, b.value) || KIND_ORDER[this.reader.prefixOfNo(a.no)] - KIND_ORDER[this.reader.prefixOfNo(b.no)] || a.no - b.no);
    const rankMatch = ['exact', 'premise', 'partial', 'partial'] as const;
    const candidates = hits.slice(0, limit).map((h) => this.candidate(h.no, rankMatch[h.rank] ?? 'partial', 'address', h.value, 'address_match'));
    return { input: text, normalised, candidates, total: hits.length };
  }

  resolveIdentifier(scheme: string, value: string, options: { areaUid?: string; limit?: number } = {}): ResolutionCandidate[] {
    const limit = options.limit ?? 20;
    if (scheme === 'address') return this.resolveAddress(value, options).candidates;
    if (!(IDENTIFIER_SCHEMES as readonly string[]).includes(scheme)) {
      throw new SampleStoreError('invalid_argument', `unknown identifier scheme ${scheme}; use one of ${IDENTIFIER_SCHEMES.join(', ')}`);
    }
    const index = this.identifiers();
    const lookups: Array<{ scheme: IdentifierScheme; value: string }> = [];
    const trimmed = value.trim();
    if (scheme === 'ssl' || scheme === 'ssl_as_published') {
      // Either form finds both: the canonical SSL and the form OTR published. A placeholder
      // (`0000 0000`, which some permits carry) is no parcel's SSL: it finds nothing.
      const parsed = parseSsl(canonicalSsl(trimmed));
      if (parsed && isPlaceholderSsl(parsed)) return [];
      if (parsed) lookups.push({ scheme: 'ssl', value: parsed.canonical });
      lookups.push({ scheme: 'ssl_as_published', value: trimmed.toUpperCase() });
    } else if (scheme === 'unit_designator') {
      lookups.push({ scheme, value: trimmed.toUpperCase().replace(/^0+(?=[0-9A-Z])/, '') });
    } else if (scheme === 'account_no' || scheme === 'mar_id') {
      lookups.push({ scheme, value: canonicalNumber(trimmed) });
    } else {
      lookups.push({ scheme: scheme as IdentifierScheme, value: trimmed });
    }
    const out: ResolutionCandidate[] = [];
    const seen = new Set<number>();
    for (const lookup of lookups) {
      const code = IDENTIFIER_SCHEMES.indexOf(lookup.scheme) + 1;
      for (const no of [...entityList(index.exact[code - 1]?.get(lookup.value))].sort((a, b) => a - b)) {
        if (seen.has(no) || !this.entityInArea(no, options.areaUid)) continue;
        seen.add(no);
        out.push(this.candidate(no, 'exact', lookup.scheme, lookup.value, `${lookup.scheme}_match`));
      }
    }
    out.sort((a, b) => KIND_ORDER[a.prefix] - KIND_ORDER[b.prefix]);
    return out.slice(0, limit);
  }
}

function entityList(held: number | number[] | undefined): readonly number[] {
  return held === undefined ? [] : typeof held === 'number' ? [held] : held;
}

/** First index whose value is greater than `value`. */
function upperBound(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? 0) <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
