// The store over the embedded sample data: its interface (sample-store/interface.ts) and how to open
// it (sample-store/store.ts, over one module per topic). Operations and tests import it from here.
export * from './sample-store/interface.ts';
export { defaultSampleDbPath, openSampleStore } from './sample-store/store.ts';
export type { AreaUid, EntityKind, EntityPrefix, IdentifierScheme, LinkMethod, LocationPrecision, NormalisedAddress, Predicate } from './sample-keys.ts';
export { AREA_ALEXANDRIA, AREA_DC, PREDICATES } from './sample-keys.ts';
