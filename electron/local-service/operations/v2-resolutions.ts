// POST /api/v2/resolutions: what the client has in hand (addresses, SSLs, account numbers, ...) to
// the sample's entities, item by item, each candidate with the identifiers it matched and cited.
// Choices the spec leaves open are documented in docs/service-notes.md ("v2 operations").
import type { OperationResult } from '../operation.ts';
import type { SampleStore } from '../sample-store.ts';
import {
  chargeFor,
  priceRuleFor,
  requestIssues,
  resolutionClientId,
  V2ResolutionItemSchema,
  V2ResolutionsRequestSchema,
} from '../../../shared/service/index.ts';
import type { V2ResolutionItem } from '../../../shared/service/index.ts';
import {
  encodeCursor,
  generationMeta,
  ProvenanceCollector,
  readCursor,
  requestFingerprint,
  operation,
  SAMPLE_KINDS,
  kindRank,
  kindOfRef,
  knownAreas,
  canonicalIdentity,
  identityProvenance,
  definingRecords,
} from './v2-common.ts';
import { invalidParameter } from './v2-property-index.ts';

/** Candidates an item can page through; a partial address like "ST" could otherwise list thousands. */
const MAX_CANDIDATES = 500;

const MATCH_RANK: Record<string, number> = { exact: 0, premise: 1, partial: 2 };

interface MatchedIdentifier {
  scheme: string;
  value: string;
  match_basis: string;
}

interface CandidateDraft {
  entityRef: string;
  kind: string;
  areaUid: string;
  rank: number;
  matchBasis: string;
  precision: 'exact' | 'approximate';
  method: string;
  matched: MatchedIdentifier[];
}

function addCandidate(drafts: Map<string, CandidateDraft>, draft: Omit<CandidateDraft, 'matched'>, identifier: MatchedIdentifier): void {
  const existing = drafts.get(draft.entityRef);
  if (!existing) {
    drafts.set(draft.entityRef, { ...draft, matched: [identifier] });
    return;
  }
  if (!existing.matched.some((m) => m.scheme === identifier.scheme && m.value === identifier.value)) existing.matched.push(identifier);
  if (draft.rank < existing.rank) Object.assign(existing, { rank: draft.rank, matchBasis: draft.matchBasis, precision: draft.precision, method: draft.method });
}

/** The properties an entity belongs to (itself for a property), by the links that tie land, accounts and addresses to properties. */
function propertiesOf(store: SampleStore, entityRef: string, kind: string): string[] {
  if (kind === 'property') return [entityRef];
  return [
    ...new Set(
      store
        .relationships(entityRef, { direction: 'in', predicates: ['located_in', 'taxed_in', 'served_by'], includeRecordObjects: false })
        .map((relationship) => relationship.subject_ref)
        .filter((ref) => ref.startsWith('prop_')),
    ),
  ];
}

interface ItemOutcome {
  result: Record<string, unknown>;
  failed: boolean;
}

function invalidItem(clientId: string, reason: string, issues: unknown[] = []): ItemOutcome {
  return { result: { client_id: clientId, outcome: 'invalid_input', candidates: [], reason, issues }, failed: true };
}

function resolveItem(
  store: SampleStore,
  item: V2ResolutionItem,
  candidateLimit: number,
  cursor: string | undefined,
  provenance: ProvenanceCollector,
): ItemOutcome {
  const addressIdentifiers = item.identifiers.filter((identifier) => identifier.scheme === 'address');
  if (item.subject_kind === 'address' && addressIdentifiers.length === 0) {
    return invalidItem(item.client_id, 'identifiers: an address subject needs an identifier with scheme address');
  }
  if (item.subject_kind === 'identifier' && addressIdentifiers.length === item.identifiers.length) {
    return invalidItem(item.client_id, 'identifiers: an identifier subject needs an ssl, account_no, mar_id or entity_ref identifier (use subject_kind address for addresses)');
  }
  const fingerprint = requestFingerprint('v2.resolution', { ...item, client_id: undefined });
  let offset = 0;
  if (cursor !== undefined) {
    const positions = readCursor(cursor, 'resolution', fingerprint, 1);
    if (positions === null) return invalidItem(item.client_id, `candidate_cursors.${item.client_id}: not a cursor this service issued for this item`);
    offset = positions[0] ?? 0;
  }
  const warnings: string[] = [];
  if (item.include_retired_identifiers) warnings.push('The sample is one snapshot per source: it holds no retired identifiers.');
  if (item.area_uid !== undefined && !knownAreas(store).includes(item.area_uid)) {
    return {
      result: { client_id: item.client_id, outcome: 'not_found', candidates: [], total_candidates: 0, reason: `area_uid ${item.area_uid}: no records in the sample`, ...(warnings.length > 0 ? { warnings } : {}) },
      failed: true,
    };
  }
  if (item.entity_kind !== undefined && !SAMPLE_KINDS.has(item.entity_kind)) {
    return {
      result: { client_id: item.client_id, outcome: 'not_found', candidates: [], total_candidates: 0, reason: `The sample holds no ${item.entity_kind} entities.`, ...(warnings.length > 0 ? { warnings } : {}) },
      failed: true,
    };
  }

  const drafts = new Map<string, CandidateDraft>();
  const areaOption = item.area_uid === undefined ? {} : { areaUid: item.area_uid };
  let addressResolution: Record<string, unknown> | undefined;
  for (const identifier of item.identifiers) {
    const matched = { scheme: identifier.scheme, value: identifier.value };
    if (identifier.scheme === 'address') {
      const resolution = store.resolveAddress(identifier.value, { ...areaOption, limit: MAX_CANDIDATES });
      addressResolution ??= {
        input: resolution.input,
        normalised: resolution.normalised === null ? null : { premise: resolution.normalised.premise, unit: resolution.normalised.unit, full: resolution.normalised.full },
        matched: resolution.total > 0,
        best_match: resolution.candidates[0] ? `address_${resolution.candidates[0].match}` : null,
        total: resolution.total,
      };
      for (const candidate of resolution.candidates) {
        const basis = `address_${candidate.match}`;
        addCandidate(
          drafts,
          { entityRef: candidate.entity_id, kind: candidate.entity_kind, areaUid: candidate.area_uid, rank: MATCH_RANK[candidate.match] ?? 2, matchBasis: basis, precision: candidate.precision, method: candidate.method },
          { ...matched, match_basis: basis },
        );
        // A building's address serves its units: they share the street address, not the unit.
        if (candidate.entity_kind === 'address' && candidate.match !== 'partial') {
          for (const served of store.relationships(candidate.entity_id, { direction: 'in', predicates: ['served_by'], includeRecordObjects: false })) {
            const ref = served.subject_ref;
            const kind = kindOfRef(ref);
            if ((kind !== 'property' && kind !== 'unit') || drafts.has(ref)) continue;
            addCandidate(
              drafts,
              { entityRef: ref, kind, areaUid: candidate.area_uid, rank: MATCH_RANK['premise'] ?? 1, matchBasis: 'address_premise', precision: 'approximate', method: 'address_match' },
              { ...matched, match_basis: 'address_premise' },
            );
          }
        }
      }
    } else if (identifier.scheme === 'entity_ref') {
      const entity = store.getEntity(identifier.value.trim());
      if (entity && (item.area_uid === undefined || entity.area_uid === item.area_uid)) {
        addCandidate(
          drafts,
          { entityRef: entity.entity_id, kind: entity.entity_kind, areaUid: entity.area_uid, rank: 0, matchBasis: 'entity_ref_exact', precision: 'exact', method: 'entity_ref_lookup' },
          { ...matched, match_basis: 'entity_ref_exact' },
        );
      }
    } else {
      for (const candidate of store.resolveIdentifier(identifier.scheme, identifier.value, { ...areaOption, limit: MAX_CANDIDATES })) {
        const basis = `${identifier.scheme}_exact`;
        addCandidate(
          drafts,
          { entityRef: candidate.entity_id, kind: candidate.entity_kind, areaUid: candidate.area_uid, rank: 0, matchBasis: basis, precision: 'exact', method: candidate.method },
          { ...matched, match_basis: basis },
        );
      }
    }
  }

  const ordered = [...drafts.values()]
    .filter((draft) => item.entity_kind === undefined || draft.kind === item.entity_kind)
    .sort((a, b) => b.matched.length - a.matched.length || a.rank - b.rank || kindRank(a.kind) - kindRank(b.kind) || (a.entityRef < b.entityRef ? -1 : 1))
    .slice(0, MAX_CANDIDATES);
  const common = {
    client_id: item.client_id,
    total_candidates: ordered.length,
    ...(addressResolution === undefined ? {} : { address_resolution: addressResolution }),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
  if (ordered.length === 0) {
    return { result: { ...common, outcome: 'not_found', candidates: [], reason: 'No entity in the sample matches these identifiers.' }, failed: true };
  }
  if (offset >= ordered.length) return invalidItem(item.client_id, `candidate_cursors.${item.client_id}: past the last candidate`);

  // Ambiguous when the best-matching candidates stand for more than one property.
  const best = ordered[0];
  const top = ordered.filter((draft) => best !== undefined && draft.matched.length === best.matched.length && draft.rank === best.rank);
  const subjects = new Set<string>();
  for (const draft of top) {
    const properties = propertiesOf(store, draft.entityRef, draft.kind);
    subjects.add(properties.length === 1 ? (properties[0] ?? draft.entityRef) : draft.entityRef);
    if (subjects.size > 1) break;
  }

  const page = ordered.slice(offset, offset + candidateLimit);
  const candidates = page.map((draft) => {
    const entity = store.getEntity(draft.entityRef);
    if (!entity) throw new Error(`candidate ${draft.entityRef} is not in the sample store`);
    const properties = propertiesOf(store, draft.entityRef, draft.kind);
    return {
      entity_ref: draft.entityRef,
      entity_kind: draft.kind,
      status: entity.status,
      area_uid: draft.areaUid,
      canonical_identity: canonicalIdentity(entity),
      identity_provenance: identityProvenance(store, entity, provenance),
      match_basis: draft.matchBasis,
      ...(properties.length === 1 && properties[0] !== undefined ? { property_ref: properties[0] } : {}),
      property_count: properties.length,
      precision: draft.precision,
      method: draft.method,
      matched_identifiers: draft.matched,
      source_refs: provenance.records(definingRecords(entity)),
    };
  });
  const nextOffset = offset + candidateLimit;
  return {
    result: {
      ...common,
      outcome: subjects.size > 1 ? 'ambiguous' : 'ok',
      candidates,
      ...(nextOffset < ordered.length ? { next_candidate_cursor: encodeCursor('resolution', fingerprint, [nextOffset]) } : {}),
    },
    failed: false,
  };
}

export const resolveEntities = operation('v2.resolveEntities', (request, { store }) => {
  const batch = V2ResolutionsRequestSchema.parse(request.body);
  const cursors = batch.candidate_cursors ?? {};
  const clientIds = batch.items.map(resolutionClientId);
  const unknownCursor = Object.keys(cursors).find((id) => !clientIds.includes(id));
  if (unknownCursor !== undefined) {
    throw invalidParameter('candidate_cursors', `candidate_cursors.${unknownCursor}`, 'names no item of this request');
  }
  const provenance = new ProvenanceCollector(store);
  const seen = new Map<string, number>();
  const outcomes = batch.items.map((raw, position): ItemOutcome => {
    const clientId = resolutionClientId(raw);
    const parsed = V2ResolutionItemSchema.safeParse(raw);
    if (!parsed.success) {
      const issues = requestIssues(parsed.error);
      return invalidItem(clientId, issues.map((issue) => `${issue.location}: ${issue.message}`).join('; '), issues);
    }
    const first = seen.get(clientId);
    if (first !== undefined) return invalidItem(clientId, `client_id: repeats item ${first}; each item needs its own client_id`);
    seen.set(clientId, position);
    return resolveItem(store, parsed.data, batch.candidate_limit, cursors[clientId], provenance);
  });
  const results = outcomes.map((outcome) => outcome.result as { candidates: unknown[] } & Record<string, unknown>);
  const resolvedItems = results.filter((result) => result.candidates.length > 0).length;
  return {
    data: { items: results },
    status: outcomes.some((outcome) => outcome.failed) ? 'partial' : 'ok',
    meta: { ...generationMeta(store), resolved_items: resolvedItems },
    provenance: provenance.build(),
    charge: chargeFor(priceRuleFor('v2.resolveEntities'), { hasResults: resolvedItems > 0, resolvedItems }),
  } satisfies OperationResult;
});
