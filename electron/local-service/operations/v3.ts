// v3 of the local Property Records Service: POST /api/v3/record-queries in its three modes
// (spec "Endpoints / v3"; Plat's request rules in shared/service/v3.ts and docs/service-contract.md;
// what each answer holds in docs/service-notes.md, "v4 and v3 operations").
//   catalog    the datasets, their fields and filters, record counts (free)
//   aggregate  one measure over a dataset, optionally grouped
//   report     report_subject_v1 (every section about one property) or report_comparables_v1 (sales
//              within a radius of it, paged)
// Whatever the sample cannot say is present and marked `unavailable` with a sentence saying why;
// synthetic building characteristics are marked `synthetic` and cited to the synthetic source.
import { chargeFor, entityPrefix, priceRuleFor, v3Datasets, V3RecordQuerySchema } from '../../../shared/service/index.ts';
import type { V3Dataset, V3RecordQuery } from '../../../shared/service/index.ts';
import type { LocalOperation } from '../operation.ts';
import { ServiceFailure } from '../operation.ts';
import { DATASET_IDS, isCondoUnitSsl, parseSsl } from '../sample-keys.ts';
import { AREA_ALEXANDRIA, AREA_DC, BUILDING_FACT_FIELDS } from '../sample-store.ts';
import type { EntityFacts, Fact, FactField, SaleNear, SampleRecord, SampleSource, SampleStore } from '../sample-store.ts';
import { isoDay, locationStatus, preferredFact, sampleSnapshot, SourceCollector } from './citations.ts';
import { cursorNotIssued, decodeOffsetCursor, encodeOffsetCursor } from './offset-cursor.ts';
import { aggregate, catalogRows, compileFilters, datasetSources, field, saleRangeFilters } from './v3-datasets.ts';
import type { V3RangeFilterDefinition } from './v3-datasets.ts';
import { contractOperation, entityLimitations } from './v4.ts';

// ---------------------------------------------------------------------------------------------
// Subject

const NO_LOANS = 'The sample has no loans: no mortgage or loan records for DC, Maryland or Northern Virginia are in it.';

/** The facts about a report's subject: a property, parcel, unit or tax account. */
function subjectFacts(store: SampleStore, ref: string): EntityFacts {
  const prefix = entityPrefix(ref);
  if (prefix === undefined) {
    throw new ServiceFailure(
      400,
      'invalid_subject_property_ref',
      'subject_property_ref: must be a property, parcel, unit or tax account id (prop_, parc_, unit_ or acct_ and a lowercase uuid)',
    );
  }
  if (prefix === 'loan') throw new ServiceFailure(404, 'not_found', `No loan ${ref}. ${NO_LOANS}`);
  if (prefix === 'addr') {
    throw new ServiceFailure(
      400,
      'invalid_subject_property_ref',
      'subject_property_ref: is an address, which may hold several properties; resolve it to a property first (v4 connected or v2 resolutions give its prop_ id)',
    );
  }
  const facts = store.factsFor(ref);
  if (facts === null) throw new ServiceFailure(404, 'not_found', `No property ${ref} in the sample.`);
  return facts;
}

/** The best fact of a field: real before synthetic, the entity's own row first (the store's order). */
function bestFact(facts: EntityFacts, field: FactField): Fact | undefined {
  return preferredFact(facts.facts.filter((f) => f.field === field));
}

/** A published value first, else one derived from published values (marked so); never a synthetic one. */
function realFact(facts: EntityFacts, field: FactField): Fact | undefined {
  return facts.facts.find((f) => f.field === field && f.status === 'reported') ?? facts.facts.find((f) => f.field === field && f.status === 'derived');
}

/** What a derived value says about itself: how it was made and from which record. */
function derivation(fact: Fact) {
  return { method: fact.method, derived_from: fact.derived_from ?? fact.citation.record_ref, note: fact.note ?? '' };
}

/** A field cell: `{value, status, source_refs}`, or an `unavailable` cell saying why. */
function cell(fact: Fact | undefined, sources: SourceCollector, unavailable: string) {
  if (fact === undefined) return { value: '', status: 'unavailable', source_refs: [] as string[], limitation: unavailable };
  return {
    value: String(fact.value),
    status: fact.status,
    source_refs: [sources.cite(fact.citation)],
    ...(fact.status === 'derived' ? derivation(fact) : fact.note === null ? {} : { note: fact.note }),
  };
}

const text = (fact: Fact | undefined): string | undefined => (fact === undefined ? undefined : String(fact.value));

function propertyType(facts: EntityFacts): string {
  if (facts.area_uid === AREA_ALEXANDRIA) return 'parcel';
  const ssl = realFact(facts, 'ssl');
  const parsed = ssl === undefined ? null : parseSsl(String(ssl.value));
  if (parsed === null) return 'unknown';
  if (isCondoUnitSsl(parsed)) return 'condominium_unit';
  return { square: 'record_lot', par: 'parcel_key_lot', res: 'federal_reservation', pi: 'possessory_interest' }[parsed.form];
}

function areaPhrase(facts: EntityFacts): string {
  return facts.area_uid === AREA_ALEXANDRIA ? 'Alexandria' : 'this lot';
}

// ---------------------------------------------------------------------------------------------
// Building profiles

const isBuildingFact = (fact: Fact) => (BUILDING_FACT_FIELDS as readonly string[]).includes(fact.field);
const SYNTHETIC_PROFILE =
  'SYNTHETIC, not a record of this property: Plat copied these characteristics from a real DC CAMA residential record of the same use code near the lot’s tax square (see derived_from; the k-th lot of a tax square (by SSL) takes the k-th nearest record of its use code to the square’s centroid, so it is not necessarily the record nearest the lot) so comparables can be demonstrated. The OTR roll publishes no building characteristics.';
const CAMA_PROFILE = 'DC CAMA residential extract of about 2022: characteristics as of the extract, which may differ from those at the time of the sale.';

/** What DC CAMA's AC code means; another code is passed on as published. */
const COOLING_MEANING: Readonly<Record<string, string>> = { Y: 'Central air', N: 'None' };

/** `cooling` (the meaning) and `cooling_code` (as published) from a published AC code. */
function cooling(code: string | undefined) {
  if (code === undefined || code.trim() === '') return {};
  const published = code.trim();
  return { cooling: COOLING_MEANING[published] ?? published, cooling_code: published };
}

/** `characteristics` / `sections.building` from an entity's facts (synthetic ones marked). */
function profileFromFacts(facts: EntityFacts, sources: SourceCollector) {
  const building = facts.facts.filter(isBuildingFact);
  if (building.length === 0) {
    return {
      status: 'unavailable',
      profile_count: 0,
      source_refs: [] as string[],
      limitations: entityLimitations(facts).find((l) => l.includes('uilding characteristics')) ?? 'No building characteristics in the sample for this property.',
    };
  }
  const pick = (name: FactField) => building.find((f) => f.field === name && !f.synthetic) ?? building.find((f) => f.field === name);
  const num = (name: FactField) => {
    const value = pick(name)?.value;
    return typeof value === 'number' ? value : undefined;
  };
  const str = (name: FactField) => text(pick(name));
  const synthetic = building.every((f) => f.synthetic);
  const refs = [...new Set(building.map((f) => sources.cite(f.citation)))];
  const days = building.map((f) => isoDay(f.citation.as_of)).sort();
  const derivedFrom = [...new Set(building.map((f) => f.derived_from).filter((ref): ref is string => ref !== null))];
  return {
    status: synthetic ? 'synthetic' : 'reported',
    profile_count: 1,
    building_type: str('structure'),
    style: str('style'),
    bedrooms: num('bedrooms'),
    full_bathrooms: num('full_bathrooms'),
    half_bathrooms: num('half_bathrooms'),
    gross_area_sqft: num('gross_building_area_sqft'),
    year_built: num('year_built'),
    year_remodeled: num('year_remodeled'),
    stories: num('stories'),
    rooms: num('rooms'),
    condition: str('condition'),
    grade: str('grade'),
    heating: str('heating'),
    ...cooling(str('air_conditioning')),
    fireplaces: num('fireplaces'),
    land_area_sqft: num('land_area_sqft'),
    exterior_wall: str('exterior_wall'),
    roof: str('roof'),
    kitchens: num('kitchens'),
    units: num('dwelling_units'),
    source_release_id: building[0]?.citation.release_id,
    data_date_min: days[0],
    data_date_max: days[days.length - 1],
    ...(synthetic ? { limitations: SYNTHETIC_PROFILE } : {}),
    source_refs: refs,
    ...(derivedFrom.length > 0 ? { derived_from: derivedFrom } : {}),
  };
}

/** A real CAMA record's characteristics (a comparable sale that links to no parcel). */
function profileFromCama(record: SampleRecord, sources: SourceCollector) {
  const data = record.data;
  const num = (column: string) => {
    const value = data[column];
    return typeof value === 'number' ? value : undefined;
  };
  const str = (column: string) => {
    const value = data[column];
    return typeof value === 'string' ? value : undefined;
  };
  const day = isoDay(record.citation.as_of);
  return {
    status: 'reported',
    profile_count: 1,
    building_type: str('STRUCT_D'),
    style: str('STYLE_D'),
    bedrooms: num('BEDRM'),
    full_bathrooms: num('BATHRM'),
    half_bathrooms: num('HF_BATHRM'),
    gross_area_sqft: num('GBA'),
    year_built: num('AYB'),
    year_remodeled: num('YR_RMDL'),
    stories: num('STORIES'),
    rooms: num('ROOMS'),
    condition: str('CNDTN'),
    grade: str('GRADE'),
    heating: str('HEAT'),
    ...cooling(str('AC')),
    fireplaces: num('FIREPLACES'),
    land_area_sqft: num('LANDAREA'),
    exterior_wall: str('EXTWALL'),
    roof: str('ROOF'),
    kitchens: num('KITCHENS'),
    units: num('NUM_UNITS'),
    source_release_id: record.citation.release_id,
    data_date_min: day,
    data_date_max: day,
    limitations: CAMA_PROFILE,
    source_refs: [sources.cite(record.citation)],
  };
}

// ---------------------------------------------------------------------------------------------
// report_subject_v1

/**
 * OTR writes 0 both for a non-market transfer and for a sale recorded without a price, and does not
 * say which: the code says both, never "non-market" alone.
 */
const OTR_PRICE_ZERO_CODE = 'non_market_or_no_price';
const OTR_ACCEPTANCE_BASIS =
  'OTR writes a price of 0 for a non-market transfer or a sale without a price (it does not say which): 0 is read as non-market or no price; any other price as a market sale.';

const TAX_MISSING = 'Tax bills, tax periods and balances are not in the sample: no source in it publishes them.';
const PERMIT_SCOPE =
  'Only DCRA new-building construction permits issued 2012-01-03 to 2016-01-21 are in the sample; alterations, repairs and other permit types are not.';
const ADDRESS_MATCHED_PERMIT = 'Permits with link_method address_match name no SSL: they were tied to this property by address, which is likely, not certain.';

/**
 * The subject's item. `permitSource` is the DC permits dataset: the permit section names it in
 * `source_ids` (and the answer lists it) even when no permit of it is the subject's, because the
 * section's limitations describe that dataset's coverage.
 */
function subjectItem(ref: string, facts: EntityFacts, sources: SourceCollector, permitSource: SampleSource | null) {
  const dc = facts.area_uid === AREA_DC;
  const where = areaPhrase(facts);
  const identityRefs = new Set<string>();
  const derivedIdentity: Record<string, ReturnType<typeof derivation>> = {};
  const identityValue = (name: FactField) => {
    const fact = realFact(facts, name);
    if (fact) identityRefs.add(sources.cite(fact.citation));
    if (fact?.status === 'derived') derivedIdentity[name] = derivation(fact);
    return text(fact);
  };
  const identity = {
    property_ref: ref,
    entity_kind: facts.entity_kind,
    address: identityValue('address'),
    ssl: identityValue('ssl'),
    account_no: identityValue('account_no'),
    area_uid: facts.area_uid,
    status: 'active',
    property_type: propertyType(facts),
    use_code: identityValue('use_code'),
    land_use: identityValue('land_use'),
    zoning: identityValue('zoning'),
    neighborhood: identityValue('neighborhood'),
    sub_neighborhood: identityValue('sub_neighborhood'),
    homestead: identityValue('homestead'),
    source_refs: [...identityRefs],
    // Identity values the service derived (a canonical SSL of a lot OTR listed in its BD form), named.
    ...(Object.keys(derivedIdentity).length > 0 ? { derived_fields: derivedIdentity } : {}),
  };

  const ownerMissing = dc ? 'No owner on the OTR roll for this lot.' : 'No owners for Alexandria in the sample: the parcel layer publishes none.';
  const ownership = {
    owner_name: cell(realFact(facts, 'owner_name'), sources, ownerMissing),
    owner_name_2: cell(undefined, sources, dc ? 'OTR publishes co-owners in the one owner field, joined with "&"; there is no second owner field.' : ownerMissing),
    ownership_form: cell(undefined, sources, 'No source in the sample publishes the form of ownership (tenancy).'),
  };

  const assessed = realFact(facts, 'assessed_value_dollars');
  const assessmentYear = realFact(facts, 'assessment_year');
  const assessmentMissing = dc ? 'No tax year 2016 assessed value on the OTR roll for this lot.' : 'No assessed values for Alexandria in the sample.';
  const assessment = {
    status: assessed ? 'reported' : 'unavailable',
    basis: assessed ? 'OTR total assessed value (land and improvements together), tax year 2016' : 'unavailable',
    assessment_year: typeof assessmentYear?.value === 'number' ? assessmentYear.value : null,
    assessment_year_status: assessmentYear ? 'reported' : 'unavailable',
    ...(assessed ? { data_date: isoDay(assessed.citation.as_of) } : {}),
    land_value_dollars: cell(undefined, sources, dc ? 'The OTR extract publishes the total assessed value only, not its land part.' : assessmentMissing),
    improvement_value_dollars: cell(
      undefined,
      sources,
      dc ? 'The OTR extract publishes the total assessed value only, not its improvement part.' : assessmentMissing,
    ),
    total_value_dollars: cell(assessed, sources, assessmentMissing),
    ...(assessed ? {} : { limitations: [assessmentMissing] }),
  };

  const tax = {
    status: 'unavailable',
    tax_period: null,
    tax_period_status: 'unavailable',
    annual_tax_dollars: cell(undefined, sources, TAX_MISSING),
    reported_balance_dollars: cell(undefined, sources, TAX_MISSING),
    limitations: [TAX_MISSING],
  };

  const price = realFact(facts, 'last_sale_price_dollars');
  const saleDate = realFact(facts, 'last_sale_date');
  const saleMissing = dc ? 'No recorded sale on the OTR roll for this lot.' : 'No sales for Alexandria in the sample.';
  const transfer =
    price === undefined && saleDate === undefined
      ? { status: 'unavailable', source_refs: [] as string[], limitations: [saleMissing] }
      : {
          status: 'reported',
          sale_date: text(saleDate),
          price_dollars: typeof price?.value === 'number' ? price.value : undefined,
          sale_type: 'last_recorded_sale',
          acceptance_code: typeof price?.value === 'number' && price.value > 0 ? 'market' : OTR_PRICE_ZERO_CODE,
          acceptance_basis: OTR_ACCEPTANCE_BASIS,
          data_date: isoDay((price ?? saleDate)?.citation.as_of ?? ''),
          source_refs: [...new Set([price, saleDate].filter((f): f is Fact => f !== undefined).map((f) => sources.cite(f.citation)))],
        };

  const building = profileFromFacts(facts, sources);
  const landArea = bestFact(facts, 'land_area_sqft');
  const land = {
    land_area_square_feet: cell(landArea, sources, dc ? 'No land area for this lot in the sample: the OTR roll publishes none.' : 'No land area for Alexandria in the sample.'),
    ...(landArea?.synthetic ? { limitations: [landArea.note ?? 'Synthetic: copied from a DC CAMA record near the lot’s tax square; not a record of this lot'] } : {}),
  };

  const permitRecords = facts.permits.map((permit) => ({
    record_number: permit.permit_id ?? permit.record_ref,
    record_type: permit.record_type ?? undefined,
    status: permit.status ?? undefined,
    record_date: permit.issue_date === null ? undefined : permit.issue_date.slice(0, 10),
    description: permit.description ?? undefined,
    address: permit.address ?? undefined,
    link_method: permit.method,
    link_confidence: permit.confidence,
    source_refs: [sources.cite(permit.citation)],
  }));
  if (dc && permitSource) sources.add(permitSource);
  const permit = dc
    ? {
        availability: 'available',
        total_count: permitRecords.length,
        has_more: false,
        records: permitRecords,
        ...(permitSource ? { source_ids: [permitSource.source_id] } : {}),
        limitations: [PERMIT_SCOPE, ...(facts.permits.some((p) => p.method === 'address_match') ? [ADDRESS_MATCHED_PERMIT] : [])],
      }
    : { availability: 'unavailable', total_count: 0, has_more: false, records: [], limitations: ['No permits for Alexandria in the sample.'] };

  const location = facts.location;
  if (location) sources.cite(location.citation);
  return {
    property_ref: ref,
    outcome: 'ok',
    ...(location
      ? {
          location: {
            latitude: location.lat,
            longitude: location.lon,
            precision: location.precision,
            ...locationStatus(location.precision),
            source_refs: [location.record_ref],
          },
        }
      : {}),
    characteristics: building,
    sections: { identity, ownership, assessment, tax, transfer, building, land, permit },
    limitations: [...entityLimitations(facts), ...(location ? [] : [`No location for ${where} in the sample.`])],
  };
}

// ---------------------------------------------------------------------------------------------
// report_comparables_v1

/** salesNear answers at most this many sales: the comparables are the nearest 500 at most. */
export const MAX_COMPARABLES = 500;

const comparableFields = [field('use_code', 'string', 'property', 'DC use code of the property sold; several entries mean any of them.')];
const comparableRangeFilters: readonly V3RangeFilterDefinition[] = [
  ...saleRangeFilters,
  {
    name: 'include_undated',
    group: 'sale',
    op: 'flag',
    target: 'sale_date',
    valueType: 'boolean',
    description:
      'Absent: include DC CAMA sales, which have no date, unless a date filter is given (a date filter excludes them). `true`: include them even with date filters (returned with sale_date_status unavailable, to be flagged, never placed in the date window). `false`: dated OTR sales only.',
  },
];

const COMPARABLE_NOTES = [
  'OTR sale locations are tax-square centroids (a median of about 100 m from the lot): distances are approximate.',
  'OTR sales are each lot\'s last recorded sale only; their characteristics are synthetic (marked), copied from CAMA records near each lot’s tax square (not necessarily the nearest to the lot).',
  'DC CAMA sales have a real price and real characteristics but no date and no parcel: their property_ref is the sale record.',
];

function comparableItem(store: SampleStore, sale: SaleNear, sources: SourceCollector) {
  sources.cite(sale.citation);
  const propertyFacts = sale.property_id === null ? null : store.factsFor(sale.property_id);
  // An OTR sale's point is its square's centroid: cited to the DC GIS square point, not to OTR.
  const squarePoint = sale.location.precision === 'square_centroid' ? propertyFacts?.location : null;
  if (squarePoint) sources.cite(squarePoint.citation);
  const record = propertyFacts === null ? store.getRecord(sale.record_ref) : null;
  const characteristics = propertyFacts
    ? profileFromFacts(propertyFacts, sources)
    : record
      ? profileFromCama(record, sources)
      : { status: 'unavailable', profile_count: 0, source_refs: [] as string[], limitations: 'No characteristics for this sale in the sample.' };
  const propertyRef = sale.property_id ?? sale.record_ref;
  const otr = sale.source_id === 'dc_otr_sale';
  const ssl = propertyFacts ? realFact(propertyFacts, 'ssl') : undefined;
  return {
    property_ref: propertyRef,
    record_ref: sale.record_ref,
    outcome: 'ok',
    location: {
      latitude: sale.location.lat,
      longitude: sale.location.lon,
      precision: sale.location.precision,
      ...locationStatus(sale.location.precision),
      source_refs: [squarePoint ? squarePoint.record_ref : sale.record_ref],
    },
    distance_miles: Math.round(sale.distance_miles * 1000) / 1000,
    characteristics,
    sections: {
      identity: {
        property_ref: propertyRef,
        address: sale.address ?? undefined,
        ssl: text(ssl),
        area_uid: AREA_DC,
        status: 'active',
        use_code: sale.use_code ?? undefined,
        source_refs: [sale.record_ref],
      },
      transfer: {
        status: 'reported',
        ...(sale.sale_date === null ? { sale_date_status: 'unavailable' } : { sale_date: sale.sale_date }),
        price_dollars: sale.price_dollars,
        sale_type: otr ? 'last_recorded_sale' : 'cama_extract_sale',
        acceptance_code: sale.market_sale ? 'market' : otr ? OTR_PRICE_ZERO_CODE : 'non_market',
        acceptance_basis: otr
          ? OTR_ACCEPTANCE_BASIS
          : 'CAMA QUALIFIED: Q (qualified) is a market sale, U (unqualified) is not.',
        data_date: isoDay(sale.citation.as_of),
        source_refs: [sale.record_ref],
      },
      building: characteristics,
    },
  };
}

function comparablesReport(store: SampleStore, query: V3RecordQuery, sources: SourceCollector) {
  const ref = query.subject_property_ref ?? '';
  const radius = query.radius_miles ?? 0;
  const facts = subjectFacts(store, ref);
  const compiled = compileFilters(query.filters, { fields: comparableFields, rangeFilters: comparableRangeFilters, label: 'report_comparables_v1' });
  const location = facts.location;
  if (location === null) {
    throw new ServiceFailure(404, 'not_found', `No location for ${ref} in the sample, so no comparables can be searched around it.`);
  }
  sources.cite(location.citation);
  const scope = `comparables|${ref}|${radius}|${JSON.stringify(query.filters ?? {})}`;
  const offset = decodeOffsetCursor(query.cursor, scope);
  const range = (name: string) => compiled.ranges.get(name);
  const fromDate = range('from_date');
  const toDate = range('to_date');
  const minPrice = range('min_price');
  const maxPrice = range('max_price');
  const useCodes = compiled.equals.get('use_code');
  const hits = store.salesNear({
    lat: location.lat,
    lon: location.lon,
    radiusMiles: radius,
    ...(typeof fromDate === 'string' ? { fromDate } : {}),
    ...(typeof toDate === 'string' ? { toDate } : {}),
    ...(typeof minPrice === 'number' ? { minPriceDollars: minPrice } : {}),
    ...(typeof maxPrice === 'number' ? { maxPriceDollars: maxPrice } : {}),
    ...(useCodes === undefined ? {} : { useCodes }),
    marketOnly: range('market_only') === true,
    // Given as `true`, the caller wants the undated sales even in a date window (to flag them); absent keeps the default.
    includeUndated: range('include_undated') !== false,
    undatedDespiteDates: range('include_undated') === true,
    limit: MAX_COMPARABLES,
  });
  // The subject's own sale is not its comparable.
  const own = new Set(store.recordsAbout(ref, { kind: 'sale' }).map((record) => record.record_ref));
  const comparables = hits.filter((sale) => !own.has(sale.record_ref));
  const page = comparables.slice(offset, offset + query.limit);
  const more = offset + query.limit < comparables.length;
  const nextCursor = more ? encodeOffsetCursor(offset + query.limit, scope) : null;
  const items = page.map((sale) => comparableItem(store, sale, sources));
  const limitations = [...COMPARABLE_NOTES];
  if (facts.area_uid === AREA_ALEXANDRIA) limitations.unshift('No sales for Alexandria in the sample: only DC sales can be comparables.');
  if (hits.length === MAX_COMPARABLES) limitations.push(`Only the ${MAX_COMPARABLES} nearest sales are considered; narrow the radius or the filters to see others.`);
  return {
    data: {
      projection: 'report_comparables_v1',
      snapshot: sampleSnapshot(store),
      sources: sources.list(),
      items,
      subject: {
        property_ref: ref,
        location: { latitude: location.lat, longitude: location.lon, precision: location.precision, ...locationStatus(location.precision), source_refs: [location.record_ref] },
      },
      total: comparables.length,
      radius_miles: radius,
      limitations,
    },
    meta: { truncated: hits.length === MAX_COMPARABLES, ...(nextCursor === null ? {} : { next_cursor: nextCursor }) },
    hasResults: items.length > 0,
  };
}

// ---------------------------------------------------------------------------------------------
// The operation

function listSourcesOf(store: SampleStore, datasets: readonly V3Dataset[], sources: SourceCollector): void {
  for (const dataset of datasets) for (const source of datasetSources(store, dataset)) sources.add(source);
}

export const v3RecordQuery: LocalOperation = contractOperation('v3.recordQuery', (request, { store }) => {
  const query = V3RecordQuerySchema.parse(request.body);
  const sources = new SourceCollector();
  const rule = priceRuleFor('v3.recordQuery', query);
  const snapshot = sampleSnapshot(store);
  // Only the comparables report pages (its cursors are sealed to it); no other answer issues a cursor.
  if (query.cursor !== undefined && !(query.mode === 'report' && query.projection === 'report_comparables_v1')) throw cursorNotIssued();

  if (query.mode === 'catalog') {
    const datasets = query.dataset === undefined ? v3Datasets : [query.dataset];
    let rows = datasets.flatMap((dataset) => catalogRows(store, dataset));
    if (query.field !== undefined) {
      const name = query.field;
      rows = rows.filter((row) => row.field === name);
      if (rows.length === 0) {
        const where = query.dataset === undefined ? 'no dataset has' : `the ${query.dataset} dataset has no field or filter`;
        throw new ServiceFailure(400, 'invalid_field', `field: ${where} "${name}"${query.dataset === undefined ? ' as a field or filter' : ''}; catalog mode without field lists them`);
      }
    }
    listSourcesOf(store, [...new Set(rows.map((row) => row.dataset))], sources);
    return {
      data: { projection: 'catalog', snapshot, sources: sources.list(), items: rows },
      charge: chargeFor(rule, { hasResults: rows.length > 0 }),
    };
  }

  if (query.mode === 'aggregate') {
    const dataset = query.dataset;
    const measure = query.measure;
    if (dataset === undefined || measure === undefined) throw new Error('the request schema requires dataset and measure in aggregate mode');
    const rows = aggregate(store, dataset, { measure, groupBy: query.group_by, filters: query.filters });
    listSourcesOf(store, [dataset], sources);
    return {
      data: { projection: 'aggregate', snapshot, sources: sources.list(), items: rows, dataset, ...(query.group_by === undefined ? {} : { group_by: query.group_by }) },
      charge: chargeFor(rule, { hasResults: rows.length > 0 }),
    };
  }

  if (query.projection === 'report_comparables_v1') {
    const { data, meta, hasResults } = comparablesReport(store, query, sources);
    return { data, meta, charge: chargeFor(rule, { hasResults }) };
  }

  const ref = query.subject_property_ref ?? '';
  const facts = subjectFacts(store, ref);
  const item = subjectItem(ref, facts, sources, store.getSource(DATASET_IDS.permits));
  return {
    data: { projection: 'report_subject_v1', snapshot, sources: sources.list(), items: [item] },
    charge: chargeFor(rule, { hasResults: true }),
  };
});

export const v3Operations: readonly LocalOperation[] = [v3RecordQuery];
