// v2 in the independent dialect: provenance by source release (`<source_id>@<release_id>`, in the
// envelope and in every `source_refs` of the data), traversal nodes of four keys and edges of the
// spec's keys with the dialect's own predicates, and coverage rows without `area_uid`.
import { jurisdictionName } from '../../../shared/jurisdictions.ts';
import type { JurisdictionCode } from '../../../shared/jurisdictions.ts';
import type { OperationRequest, OperationResult } from '../operation.ts';
import type { SampleStore } from '../sample-store.ts';
import { ReleaseRefs } from './refs.ts';

/** The embedded predicates and the dialect's words for them. */
export const INDEPENDENT_PREDICATES: Readonly<Record<string, string>> = {
  located_in: 'lies_on',
  taxed_in: 'account_for',
  assessed_in: 'assessed_on',
  served_by: 'situs_of',
  permitted_by: 'permit_for',
  same_owner: 'owner_of',
};

/** The spec's edge keys: the only ones the dialect writes. */
const EDGE_KEYS = [
  'relationship_ref', 'subject_ref', 'predicate', 'object_ref', 'direction', 'precision', 'method',
  'confidence', 'status', 'generation_id', 'valid_from', 'valid_to', 'source_refs',
] as const;

/** The domains a coverage row speaks for, and the embedded domain each reads. */
const COVERAGE_DOMAINS: ReadonlyArray<readonly [string, string]> = [
  ['ownership', 'ownership'],
  ['assessment', 'assessment'],
  ['sale', 'sale'],
  ['permit', 'permit'],
  ['characteristics', 'building_characteristics'],
];

type Json = Record<string, unknown>;
type Provenance = NonNullable<OperationResult['provenance']>;

function provenanceOut(provenance: Provenance | undefined): Provenance | undefined {
  if (provenance === undefined) return undefined;
  const sources = new Map<string, Record<string, string>>();
  for (const entry of provenance.sources) {
    const ref = `${entry['source_id'] ?? entry['source_ref']}@${entry['release_id']}`;
    if (sources.has(ref)) continue;
    sources.set(ref, {
      source_ref: ref,
      source_kind: 'release',
      publisher: entry['publisher'] ?? '',
      release_id: entry['release_id'] ?? '',
      captured_at: entry['captured_at'] ?? '',
      official_url: entry['official_url'] ?? '',
    });
  }
  return { source_refs: [...sources.keys()], sources: [...sources.values()] };
}

function nodeOut(node: Json): Json {
  return { entity_ref: node['id'], entity_kind: node['kind'] ?? node['node_type'], label: node['label'], depth: node['depth'] };
}

function edgeOut(edge: Json, refs: ReleaseRefs): Json {
  const out: Json = {};
  for (const key of EDGE_KEYS) if (edge[key] !== undefined) out[key] = edge[key];
  const predicate = String(edge['predicate']);
  out['predicate'] = INDEPENDENT_PREDICATES[predicate] ?? predicate;
  out['method'] = 'record_match';
  out['source_refs'] = refs.list(Array.isArray(edge['source_refs']) ? edge['source_refs'] : []);
  return out;
}

function traversalOut(data: Json, refs: ReleaseRefs): Json {
  const nodes = (data['nodes'] as Json[]).map(nodeOut);
  const edges = (data['edges'] as Json[]).map((edge) => edgeOut(edge, refs));
  return { ...data, nodes, edges };
}

function coverageOut(data: Json): Json {
  const rows = new Map<string, Json>();
  for (const item of data['items'] as Json[]) {
    const jurisdiction = String(item['jurisdiction']);
    for (const [domain, embeddedDomain] of COVERAGE_DOMAINS) {
      if (item['domain_key'] !== embeddedDomain || rows.has(`${jurisdiction}|${domain}`)) continue;
      rows.set(`${jurisdiction}|${domain}`, {
        jurisdiction,
        name: jurisdictionName(jurisdiction as JurisdictionCode),
        domain,
        status: item['status'] === 'none' ? 'unavailable' : 'available',
      });
    }
  }
  return { ...data, items: [...rows.values()] };
}

export function v2ResultOut(operation: string, request: OperationRequest, result: OperationResult, store: SampleStore): OperationResult {
  const refs = new ReleaseRefs(store);
  let data = result.data as Json;
  if (operation === 'v2.traverseRelationships') data = traversalOut(data, refs);
  if (operation === 'v2.getCatalog' && request.query.get('facet') === 'coverage') data = coverageOut(data);
  const provenance = provenanceOut(result.provenance);
  return { ...result, data: refs.rewrite(data), ...(provenance === undefined ? {} : { provenance }) };
}
