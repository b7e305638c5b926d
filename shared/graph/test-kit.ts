// The real answers the graph tests are built on (shared/graph/fixtures/*.json: each says the request
// that produced it, asked of the embedded service), and the ids they are about. Tests only.
import accountConnectedPoozesh from './fixtures/dc-poozesh-account-connected-depth-2.json' with { type: 'json' };
import connected1708 from './fixtures/dc-1708-parcel-connected-depth-2.json' with { type: 'json' };
import entityParcel0451 from './fixtures/dc-0451-0828-parcel-entity.json' with { type: 'json' };
import ownership0451 from './fixtures/dc-0451-0828-ownership.json' with { type: 'json' };
import connectedNotFound from './fixtures/connected-not-found.json' with { type: 'json' };
import entity934 from './fixtures/dc-934-n-st-nw-parcel-entity.json' with { type: 'json' };
import entityParcel1708 from './fixtures/dc-1708-parcel-entity.json' with { type: 'json' };
import entityPlaceholder from './fixtures/dc-placeholder-ssl-parcel-entity.json' with { type: 'json' };
import entityProperty1708 from './fixtures/dc-1708-property-entity.json' with { type: 'json' };
import permits934 from './fixtures/dc-934-n-st-nw-permits.json' with { type: 'json' };
import relationships1708Capped from './fixtures/dc-1708-property-relationships-capped.json' with { type: 'json' };
import relationships1708Depth1 from './fixtures/dc-1708-property-relationships-depth-1.json' with { type: 'json' };
import relationships1708Depth2 from './fixtures/dc-1708-property-relationships-depth-2.json' with { type: 'json' };
import relationshipsPlaceholder from './fixtures/dc-placeholder-ssl-parcel-relationships.json' with { type: 'json' };
import relationshipsPoozesh from './fixtures/dc-poozesh-property-relationships-depth-2.json' with { type: 'json' };
import relationshipsPoozeshRefetch from './fixtures/dc-poozesh-property-relationships-depth-2-refetch.json' with { type: 'json' };
import sales934 from './fixtures/dc-934-n-st-nw-sales.json' with { type: 'json' };
import searchBruno from './fixtures/owner-search-bruno-a-chumpitazi-md-pc.json' with { type: 'json' };
import searchCheng from './fixtures/owner-search-anthony-c-cheng.json' with { type: 'json' };
import searchCindyChang from './fixtures/owner-search-cindy-chang.json' with { type: 'json' };
import searchDc1 from './fixtures/owner-search-district-of-columbia-page-1.json' with { type: 'json' };
import searchDc2 from './fixtures/owner-search-district-of-columbia-page-2.json' with { type: 'json' };
import searchKuipers from './fixtures/owner-search-joel-kuipers.json' with { type: 'json' };
import searchPoozesh from './fixtures/owner-search-abdollah-poozesh.json' with { type: 'json' };
import searchPugh from './fixtures/owner-search-pugh.json' with { type: 'json' };

export const fixtures = {
  accountConnectedPoozesh,
  connected1708,
  connectedNotFound,
  entity934,
  entityParcel0451,
  entityParcel1708,
  entityPlaceholder,
  entityProperty1708,
  permits934,
  ownership0451,
  relationships1708Capped,
  relationships1708Depth1,
  relationships1708Depth2,
  relationshipsPlaceholder,
  relationshipsPoozesh,
  relationshipsPoozeshRefetch,
  sales934,
  searchBruno,
  searchCheng,
  searchCindyChang,
  searchDc1,
  searchDc2,
  searchKuipers,
  searchPoozesh,
  searchPugh,
};

/** A fixture's envelope, as a copy a test may change. */
export const envelope = (name: keyof typeof fixtures): Record<string, unknown> => structuredClone(fixtures[name].envelope) as Record<string, unknown>;

export const ids = {
  property1708: 'prop_080b9725-3c84-5ba1-ab8d-a3891860e65b',
  parcel1708: 'parc_f6ac2820-1e68-58bf-891b-63fc223242fd',
  account1708: 'acct_38bde8b8-1657-54ad-9c8c-7dba67031240',
  address1708: 'addr_0293e560-4883-540b-a751-b66d24869504',
  /** 1709 17TH ST NW, ABDOLLAH POOZESH's first holding. */
  propertyPoozesh: 'prop_284146b3-f423-59ee-80e2-29b10fd24df9',
  accountPoozesh: 'acct_206b2b5c-b1ce-57b6-806a-0ab5e5ad0856',
  /** 1620 Q ST NW, his other holding. */
  propertyPoozesh2: 'prop_cbc349a4-3c43-5fd7-8dbc-7c9f3f15eb83',
  parcelPoozesh2: 'parc_c63381cc-141d-54a1-937c-3a171e768264',
  accountPoozesh2: 'acct_4e7d5edf-105f-5450-b5db-07f3b7370689',
  /** Keyed by the placeholder SSL 0000 0000. */
  parcelPlaceholder: 'parc_14af5606-65a2-5c48-82a0-858b6e53c12f',
  /** 0600 NEW YORK AVE NW, SSL 0451 0828: two owners of record on the roll of 2017-02-05. */
  parcel0451: 'parc_c221d15a-9b50-5302-9300-d48e1ef75f10',
  /** 934 N ST NW. */
  parcel934: 'parc_560761ed-8d17-58c1-b6e7-047d182657b0',
};

type JsonObject = Record<string, unknown>;

/**
 * A v2 answer of the embedded service with its citations as the independent dialect writes them
 * (the second service's choice 6): every `source_refs` entry is `<source_id>@<release_id>`, and
 * `provenance.sources` lists each source once, `{source_ref, source_kind, publisher, release_id,
 * captured_at, official_url}`, its `source_ref` the decorated ref (or, with `bare`, the source id alone).
 */
export function withIndependentProvenance(answer: unknown, bare = false): JsonObject {
  const copy = structuredClone(answer) as JsonObject;
  const provenance = copy.provenance as { sources: JsonObject[] };
  const refOf = new Map<string, string>();
  const sources = new Map<string, JsonObject>();
  for (const source of provenance.sources) {
    const ref = `${String(source.source_id)}@${String(source.release_id)}`;
    refOf.set(String(source.source_ref), ref);
    const { publisher, release_id, captured_at, official_url } = source;
    sources.set(ref, { source_ref: bare ? source.source_id : ref, source_kind: 'source', publisher, release_id, captured_at, official_url });
  }
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'source_refs' && Array.isArray(value)) (node as JsonObject)[key] = [...new Set(value.map((ref: string) => refOf.get(ref) ?? ref))];
      else visit(value);
    }
  };
  visit(copy.data);
  copy.provenance = { source_refs: [...sources.keys()], sources: [...sources.values()] };
  return copy;
}
