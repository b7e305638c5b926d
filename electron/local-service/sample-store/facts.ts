// Facts about an entity, each with its citation and status (reported, derived or synthetic): its
// permits, its limitations, and where each of its identifiers comes from.
import { AREA_ALEXANDRIA, AREA_CODES, AREA_DC, ENTITY_PREFIX_KIND, LINK_METHODS, PREDICATES, equalityKey, normaliseAddress } from '../sample-keys.ts';
import type { AreaUid, EntityPrefix, LinkMethod } from '../sample-keys.ts';
import type { CellValue, Citation, DerivedColumn, EntityFacts, Fact, FactField, IdentifierProvenance, PermitFact } from './interface.ts';
import { BUILDING_FACT_FIELDS } from './interface.ts';
import type { DerivedColumns } from './derived-columns.ts';
import { cellOf, OverRows } from './rows.ts';
import type { EdgeRow, EntityRow, RowReader } from './rows.ts';

const OTR_NON_MARKET_NOTE = 'Price 0: OTR writes 0 for a non-market transfer or a sale without a price (non-market or no price; it does not say which)';

// Fact extraction: which column of which source gives which fact.
interface FactSpec {
  field: FactField;
  column: string;
}
const FACT_SPECS: Record<string, FactSpec[]> = {
  dc_otr_ownership: [
    { field: 'owner_name', column: 'owner' },
    { field: 'address', column: 'address' },
    { field: 'ssl', column: 'ssl' },
    { field: 'use_code', column: 'use_code' },
    { field: 'neighborhood', column: 'neighborhood' },
    { field: 'sub_neighborhood', column: 'sub_neighborhood' },
    { field: 'homestead', column: 'homestead' },
  ],
  dc_otr_assessment: [{ field: 'assessed_value_dollars', column: 'assessment_2016' }],
  dc_otr_sale: [
    { field: 'last_sale_price_dollars', column: 'last_sale_price' },
    { field: 'last_sale_date', column: 'last_sale_recordation_date' },
  ],
  dc_dcra_new_building_permits: [
    { field: 'address', column: 'FULL_ADDRESS' },
    { field: 'zip', column: 'ZIPCODE' },
  ],
  va_alexandria_parcels: [
    { field: 'account_no', column: 'account_no' },
    { field: 'address', column: 'address' },
    { field: 'land_use', column: 'land_use' },
    { field: 'zoning', column: 'zoning' },
    { field: 'zip', column: 'zip' },
  ],
  va_alexandria_address_points: [
    { field: 'address', column: 'full_address' },
    { field: 'zip', column: 'zip' },
  ],
  plat_synthetic_characteristics: [
    { field: 'year_built', column: 'AYB' },
    { field: 'year_remodeled', column: 'YR_RMDL' },
    { field: 'bedrooms', column: 'BEDRM' },
    { field: 'full_bathrooms', column: 'BATHRM' },
    { field: 'half_bathrooms', column: 'HF_BATHRM' },
    { field: 'rooms', column: 'ROOMS' },
    { field: 'stories', column: 'STORIES' },
    { field: 'gross_building_area_sqft', column: 'GBA' },
    { field: 'land_area_sqft', column: 'LANDAREA' },
    { field: 'style', column: 'STYLE_D' },
    { field: 'structure', column: 'STRUCT_D' },
    { field: 'grade', column: 'GRADE' },
    { field: 'condition', column: 'CNDTN' },
    { field: 'heating', column: 'HEAT' },
    { field: 'air_conditioning', column: 'AC' },
    { field: 'dwelling_units', column: 'NUM_UNITS' },
    { field: 'kitchens', column: 'KITCHENS' },
    { field: 'fireplaces', column: 'FIREPLACES' },
    { field: 'exterior_wall', column: 'EXTWALL' },
    { field: 'roof', column: 'ROOF' },
    { field: 'interior_wall', column: 'INTWALL' },
  ],
};
/** An address entity speaks for the address, not for the many properties behind it. */
const ADDRESS_FACT_FIELDS = new Set<FactField>(['address', 'zip']);

export class FactCollector extends OverRows {
  private readonly derived: DerivedColumns;

  constructor(reader: RowReader, derived: DerivedColumns) {
    super(reader);
    this.derived = derived;
  }

  collectFacts(e: EntityRow, recNos: number[]): Fact[] {
    const facts: Fact[] = [];
    const addressOnly = e.prefix === 'addr';
    for (const recNo of recNos) {
      const source = this.reader.sourceOfRec(recNo);
      const specs = FACT_SPECS[source.source.source_id];
      if (!specs) continue;
      const row = this.reader.row(this.reader.recordRows()[recNo] ?? 0);
      let citation: Citation | null = null;
      const cite = () => (citation ??= this.reader.citation(recNo));
      let derived: Record<string, DerivedColumn> | null = null;
      for (const spec of specs) {
        if (addressOnly && !ADDRESS_FACT_FIELDS.has(spec.field)) continue;
        const value = cellOf(row, spec.column);
        if (value === null || value === undefined) continue;
        const synthetic = source.source.synthetic;
        derived ??= synthetic ? {} : this.derived.derivedColumnsOf(row, recNo);
        const made = derived[spec.column];
        if (made) {
          // Cited to the record it came from, never as this publisher's column.
          facts.push({
            field: spec.field, value, source_field: spec.column, citation: made.citation, status: 'derived', synthetic: false,
            method: made.method, derived_from: made.derived_from, note: made.note,
          });
          continue;
        }
        facts.push({
          field: spec.field,
          value,
          source_field: spec.column,
          citation: cite(),
          status: synthetic ? 'synthetic' : 'reported',
          synthetic,
          method: synthetic ? String(cellOf(row, 'method')) : 'as_published',
          derived_from: synthetic ? String(cellOf(row, 'cama_record_ref')) : null,
          note: synthetic
            ? `Synthetic: copied from DC CAMA record ${String(cellOf(row, 'cama_record_ref'))}, ${String(cellOf(row, 'distance_m'))} m from this lot's square centroid (number ${String(cellOf(row, 'rank_in_square'))} by distance among the records of its use code, one per lot of the square: not necessarily the record nearest this lot); not a record of this lot`
            : spec.field === 'last_sale_price_dollars' && value === 0 ? OTR_NON_MARKET_NOTE : null,
        });
      }
      if (source.source.source_id === 'dc_otr_assessment' && !addressOnly) {
        // The roll is for tax year 2016: the column name says so, and that is the fact's source.
        facts.push({
          field: 'assessment_year', value: 2016, source_field: 'assessment_2016', citation: cite(), status: 'reported', synthetic: false,
          method: 'column_name', derived_from: null, note: null,
        });
      }
    }
    // A derived value the record it came from also states as published is that record's fact, once.
    const published = new Set(facts.filter((f) => f.status === 'reported').map((f) => `${f.field}|${f.citation.record_ref}|${equalityKey(f.value)}`));
    const kept = facts.filter((f) => f.status !== 'derived' || !published.has(`${f.field}|${f.citation.record_ref}|${equalityKey(f.value)}`));
    return addressOnly ? this.buildingAddressFacts(e, kept) : kept;
  }

  /**
   * An address entity is a premise: its address is a published address of that premise (`304 ADAMS
   * AV` for 304 ADAMS AVE), or, where the publishers print only unit addresses (a DC condominium:
   * `1711 MASSACHUSETTS AVE NW Unit: 1A`), the premise derived from them, marked so. Unit addresses
   * are the units' facts, not the building's.
   */
  private buildingAddressFacts(e: EntityRow, facts: Fact[]): Fact[] {
    const premise = this.reader.identifiersOf(e).find((i) => i.scheme === 'address')?.value;
    if (premise === undefined) return facts;
    const isAddress = (f: Fact) => f.field === 'address';
    const own = facts.filter((f) => isAddress(f) && normaliseAddress(String(f.value))?.full === premise);
    const units = facts.filter((f) => isAddress(f) && normaliseAddress(String(f.value))?.premise === premise && normaliseAddress(String(f.value))?.unit !== null);
    const others = facts.filter((f) => !isAddress(f));
    if (own.length > 0) return [...own, ...others];
    const example = units[0];
    if (example === undefined) return others;
    return [
      {
        field: 'address', value: premise, source_field: example.source_field, citation: example.citation, status: 'derived', synthetic: false,
        method: 'premise_of_unit_addresses', derived_from: example.citation.record_ref,
        note: `The building address, derived by the service from the ${units.length === 1 ? 'unit address' : `${units.length} unit addresses`} ${example.citation.publisher} published (e.g. "${String(example.value)}"); it publishes no address for the building itself.`,
      },
      ...others,
    ];
  }

  identifierProvenance(entityId: string): IdentifierProvenance[] | null {
    const e = this.reader.entityRow(entityId);
    if (!e) return null;
    const recNos = this.reader.recordNosAbout(e);
    const facts = this.collectFacts(e, recNos);
    const defining = recNos[0];
    const key = (v: unknown) => equalityKey(v);
    // Records about the entity holding `value` in `column`, as published (MAR ids on permits, address point ids).
    const publishedIn = (column: string, value: string): number | undefined =>
      recNos.find((recNo) => {
        const row = this.reader.row(this.reader.recordRows()[recNo] ?? 0);
        return key(cellOf(row, column)) === key(value) && !(column in this.derived.derivedColumnsOf(row, recNo));
      });
    return this.reader.identifiersOf(e).map((identifier): IdentifierProvenance => {
      const { scheme, value } = identifier;
      const reported = (recNo: number): IdentifierProvenance => ({
        scheme, value, status: 'reported', method: 'as_published', record_ref: this.reader.recordRefOf(recNo), citation: this.reader.citation(recNo), note: null,
      });
      const derived = (fact: Fact, method: string, note: string): IdentifierProvenance => ({
        scheme, value, status: 'derived', method, record_ref: fact.citation.record_ref, citation: fact.citation, note,
      });
      const sameFact = facts.find((f) => f.field === scheme && key(f.value) === key(value));
      if (sameFact?.status === 'reported') {
        return { scheme, value, status: 'reported', method: 'as_published', record_ref: sameFact.citation.record_ref, citation: sameFact.citation, note: null };
      }
      if (sameFact?.status === 'derived') return derived(sameFact, sameFact.method, sameFact.note ?? '');
      if (scheme === 'address' || scheme === 'unit_designator') {
        const addresses = facts.filter((f) => f.field === 'address' && f.status === 'reported');
        const read = (f: Fact) => normaliseAddress(String(f.value));
        const by = (f: Fact) => `${f.citation.publisher} (${f.citation.dataset})`;
        if (scheme === 'unit_designator') {
          const unit = addresses.find((f) => read(f)?.unit === value);
          if (unit) return derived(unit, 'unit_of_address', `The unit of the address "${String(unit.value)}" as ${by(unit)} published it, without its label and leading zeros.`);
        } else {
          const whole = addresses.find((f) => read(f)?.full === value);
          if (whole) return derived(whole, 'address_normalised', `Normalised by the service from "${String(whole.value)}" as ${by(whole)} published it (USPS street type, upper case, single spaces).`);
          const unit = addresses.find((f) => read(f)?.premise === value);
          if (unit) {
            return derived(unit, 'premise_of_unit_addresses', `The building address, derived by the service from the unit address "${String(unit.value)}" as ${by(unit)} published it.`);
          }
        }
      }
      const column = { ssl_as_published: 'ssl_as_published', mar_id: 'MARADDRESSREPOSITORYID', address_point_objectid: 'objectid', account_no: 'account_no', ssl: 'ssl' }[scheme as string];
      const holder = column === undefined ? undefined : publishedIn(column, value);
      if (holder !== undefined) return reported(holder);
      const ssl = scheme === 'ssl' ? facts.find((f) => f.field === 'ssl') : undefined;
      if (ssl) return derived(ssl, 'canonical_ssl', `The canonical form of the SSL ${ssl.citation.publisher} published as "${String(ssl.value)}".`);
      return reported(defining ?? 0);
    });
  }

  factsFor(entityId: string): EntityFacts | null {
    const e = this.reader.entityRow(entityId);
    if (!e) return null;
    const prefix = e.prefix as EntityPrefix;
    const area = (AREA_CODES[e.area - 1] ?? AREA_DC) as AreaUid;
    const recNos = this.reader.recordNosAbout(e);
    const facts = this.collectFacts(e, recNos);
    const permits: PermitFact[] = [];
    const permitLinks = new Map<number, { method: LinkMethod; confidence: number }>();
    for (const edge of this.reader.statements.edgesOut.all(e.entity_no) as unknown as EdgeRow[]) {
      if (edge.object < 0 && PREDICATES[edge.predicate - 1] === 'permitted_by') {
        permitLinks.set(-edge.object, { method: LINK_METHODS[edge.method - 1] ?? 'same_row', confidence: edge.confidence });
      }
    }
    for (const recNo of recNos) {
      if (this.reader.sourceOfRec(recNo).source.kind !== 'permit') continue;
      if (!permitLinks.has(recNo)) permitLinks.set(recNo, { method: 'same_row', confidence: 1 });
    }
    for (const [recNo, link] of [...permitLinks].sort((a, b) => a[0] - b[0])) {
      const record = this.reader.buildRecord(recNo);
      const v = record.data;
      const text = (x: CellValue | undefined) => (x === null || x === undefined ? null : String(x));
      permits.push({
        record_ref: record.record_ref, permit_id: text(v['PERMIT_ID']), record_type: text(v['PERMIT_SUBTYPE_NAME']),
        status: text(v['APPLICATION_STATUS_NAME']), issue_date: text(v['ISSUE_DATE']), description: text(v['DESC_OF_WORK']),
        address: text(v['FULL_ADDRESS']), method: link.method, confidence: link.confidence, citation: record.citation,
        limitations: record.limitations,
      });
    }
    const limitations: string[] = [];
    const has = (field: FactField) => facts.some((f) => f.field === field);
    const hasReal = (field: FactField) => facts.some((f) => f.field === field && !f.synthetic);
    if (prefix !== 'addr') {
      if (area === AREA_ALEXANDRIA) {
        limitations.push('No assessed values, sales, owners or building characteristics for Alexandria in the sample (the parcel layer has account, address, land use and zoning only).');
      } else {
        if (BUILDING_FACT_FIELDS.some((f) => has(f))) {
          limitations.push('Building characteristics are synthetic (plat_synthetic_characteristics): copied from a DC CAMA residential record of the same use code near the lot’s tax square (the k-th lot of a tax square (by SSL) takes the k-th nearest record of its use code to the square’s centroid, so it is not necessarily the record nearest the lot), not a record of this lot. The OTR roll publishes none.');
        } else {
          limitations.push(prefix === 'unit'
            ? 'No building characteristics for condominium units in the sample: the OTR roll has none and the CAMA extract holds no condominiums.'
            : 'No building characteristics in the sample for this lot: the OTR roll has none, and no CAMA record of its use code lies within 1 km.');
        }
        if (!hasReal('assessed_value_dollars') && prefix !== 'parc') limitations.push('No tax year 2016 assessed value on the OTR roll for this lot.');
        if (!hasReal('last_sale_date')) limitations.push('No recorded sale on the OTR roll for this lot.');
        limitations.push('Tax bills, balances and land area are not in the sample.');
      }
    }
    const location = this.reader.entityLocation(e);
    if (location?.precision === 'square_centroid') {
      limitations.push('Location is the centroid of the tax square (approximate: a median of about 100 m from the lot).');
    }
    return { entity_id: entityId, entity_kind: ENTITY_PREFIX_KIND[prefix], area_uid: area, facts, permits, location, limitations };
  }
}
