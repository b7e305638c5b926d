// The subject's sections: identity (with the location), ownership, assessment, tax, transfer and
// prior sales, building, land and permits.
import { formatDay } from '../../format-date.ts';
import type { CitationFields } from '../../cited/citation.ts';
import type { Candidate } from '../conflicts.ts';
import { buildingProfile, evidenceCandidates, permitEvidence } from '../../comparables/subject/resolve.ts';
import type { ReportSection, ReportTable } from '../document.ts';
import type { CitedValue } from '../../cited/value.ts';
import { humanizeCode } from '../format.ts';
import { isRecord } from '../../json-data.ts';
import { citationForRef, sourcesOf, strings, text, type Json } from './answers.ts';
import { contextOf, missingText, NOT_BOUGHT, sectionJson, sectionLimitations, sectionOf, unavailable, type SectionContext } from './builder.ts';
import { candidateFromSummary, candidateFromV3, citationsFor, derivedFromText, fieldCandidates, keyFor, statusOf, v3Value, type FieldSpec } from './fields.ts';

const IDENTITY_FIELDS: FieldSpec[] = [
  { key: 'address', label: 'Address', format: 'address', summary: 'address' },
  { key: 'ssl', label: 'SSL (square, suffix, lot)', format: 'ssl' },
  { key: 'account_no', label: 'Account number', format: 'account_no' },
  {
    key: 'property_type',
    label: 'Property type',
    format: 'property_type',
    derivedFrom: "the service's classification of the property's identifier (lot number, SSL prefix or parcel layer)",
  },
  { key: 'use_code', label: 'Use code', format: 'use_code', summary: 'use_code' },
  { key: 'land_use', label: 'Land use', format: 'land_use' },
  { key: 'zoning', label: 'Zoning', format: 'zoning' },
  { key: 'neighborhood', label: 'Assessment neighborhood', format: 'neighborhood' },
  { key: 'sub_neighborhood', label: 'Sub-neighborhood', format: 'sub_neighborhood' },
  { key: 'homestead', label: 'Homestead', format: 'homestead' },
];

const BUILDING_FIELDS: FieldSpec[] = [
  { key: 'building_type', label: 'Building type', format: 'building_type' },
  { key: 'style', label: 'Style', format: 'style' },
  { key: 'year_built', label: 'Year built', format: 'year_built', summary: 'year_built' },
  { key: 'effective_year_built', label: 'Effective year built', format: 'effective_year_built', summary: 'effective_year_built' },
  { key: 'year_remodeled', label: 'Year remodeled', format: 'year_remodeled' },
  { key: 'gross_area_sqft', label: 'Gross building area', format: 'gross_area_sqft', summary: 'gross_area_sqft' },
  { key: 'living_area_sqft', label: 'Living area', format: 'living_area_sqft', summary: 'living_area_sqft' },
  { key: 'stories', label: 'Stories', format: 'stories' },
  { key: 'rooms', label: 'Rooms', format: 'rooms' },
  { key: 'bedrooms', label: 'Bedrooms', format: 'bedrooms', summary: 'bedrooms' },
  { key: 'full_bathrooms', label: 'Full bathrooms', format: 'full_bathrooms', summary: 'full_bathrooms' },
  { key: 'half_bathrooms', label: 'Half bathrooms', format: 'half_bathrooms', summary: 'half_bathrooms' },
  { key: 'condition', label: 'Condition', format: 'condition' },
  { key: 'grade', label: 'Grade', format: 'grade' },
];
/** Shown (as unavailable when no source has them) whatever the answer holds: an appraiser looks for these. */
const BUILDING_ALWAYS = new Set(['year_built', 'gross_area_sqft', 'living_area_sqft', 'bedrooms', 'full_bathrooms', 'half_bathrooms']);

export function identitySection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const identity = sectionJson(ctx, 'identity');
  const refs = strings(identity?.source_refs);
  const values: CitedValue[] = [];
  for (const spec of IDENTITY_FIELDS) {
    const inReport = identity !== null && spec.key in identity;
    const inSummary = spec.summary !== undefined && b.answers.summary !== null && spec.summary in b.answers.summary;
    // Identifiers the property does not have (an SSL in Alexandria, an account number in DC) are left out.
    if (!inReport && !inSummary && spec.key !== 'address') continue;
    const isClassification = spec.key === 'property_type';
    values.push(
      b.field('identity', identity, spec, {
        refs,
        // The property type is the service's reading of the identifier, not a published column.
        // (The section's own `status` is the entity's, "active", not a value status.)
        status: isClassification ? 'derived' : 'reported',
        missing: missingText(ctx, 'Not in the subject report.'),
      }),
    );
  }
  values.push(locationValue(ctx));
  // The answers' notes about the property as a whole are printed here, cited to what identifies it (and locates it).
  const sources = sourcesOf(b.answers, identity, ctx.item?.location);
  const limitations = [...b.limitations(ctx.problems, []), ...b.limitations([...ctx.itemLimitations, ...b.generalLimitations], sources)];
  return sectionOf('identity', 'Identity', values, limitations);
}

const PRECISION_WORDS: Record<string, string> = {
  square_centroid: 'the centroid of the tax square (DC GIS square points), not the lot itself: a median of about 100 m from the lot',
  address_point: "the address point matched to the property's address",
  permit_point: "the point of a building permit at the property's address",
  cama_point: 'the point of the CAMA record',
};

function locationValue(ctx: SectionContext): CitedValue {
  const { b } = ctx;
  const location = isRecord(ctx.item?.location) ? (ctx.item.location as Json) : null;
  const lat = location?.latitude;
  const lon = location?.longitude;
  if (!location || typeof lat !== 'number' || typeof lon !== 'number') {
    const fromSummary = summaryLocation(ctx);
    if (fromSummary) return b.value('identity.location', 'Location', [fromSummary], '');
    return unavailable('identity.location', 'Location', missingText(ctx, 'The subject report gives no location for this property.'));
  }
  const precision = text(location.precision);
  const citations = strings(location.source_refs).map((ref) => citationForRef(b.answers, ref));
  const status = statusOf(location.status, citations, true);
  if (status === 'unavailable' || citations.length === 0) {
    return unavailable('identity.location', 'Location', 'The subject report gives a location without citing where it comes from.');
  }
  // Coordinates are always located by Plat or the service (matched, or a centroid): derived, never "as published".
  const candidate: Candidate = {
    key: keyFor(citations, `${lat},${lon}`, 'location'),
    raw: `${lat}, ${lon}`,
    display: `${lat.toFixed(6)}, ${lon.toFixed(6)}`,
    status,
    citations: citationsFor(status, citations),
    derivedFrom: precision ? (PRECISION_WORDS[precision] ?? `located by ${humanizeCode(precision)}`) : 'the cited record\'s location',
    note: precision === 'square_centroid' ? 'Approximate.' : null,
    rank: 0,
  };
  return b.value('identity.location', 'Location', [candidate], '');
}

/** The summary's latitude and longitude as one location, each cited; null unless both are there, numbers and cited. */
function summaryLocation(ctx: SectionContext): Candidate | null {
  const { answers } = ctx.b;
  const spec = (key: string): FieldSpec => ({ key, label: key, format: key });
  const lat = isRecord(answers.summary?.latitude) ? candidateFromSummary(answers, spec('latitude'), answers.summary.latitude, 1) : null;
  const lon = isRecord(answers.summary?.longitude) ? candidateFromSummary(answers, spec('longitude'), answers.summary.longitude, 1) : null;
  // A coordinate may be published as a number or as text ("38.9128").
  const latitude = lat === null ? NaN : Number(lat.raw);
  const longitude = lon === null ? NaN : Number(lon.raw);
  if (!lat || !lon || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  const same = (a: CitationFields, b: CitationFields) => a.sourceId === b.sourceId && a.publisher === b.publisher && a.asOf === b.asOf && a.recordRef === b.recordRef;
  const citations = [...lat.citations, ...lon.citations.filter((c) => !lat.citations.some((l) => same(l, c)))];
  const status = lat.status === 'synthetic' || lon.status === 'synthetic' ? 'synthetic' : 'derived';
  return {
    key: keyFor(citations, `${latitude},${longitude}`, 'summary-location'),
    raw: `${latitude}, ${longitude}`,
    display: `${latitude.toFixed(6)}, ${longitude.toFixed(6)}`,
    status,
    citations: citationsFor(status, citations),
    // Coordinates are located by someone (matched, or a centroid): the summary says by whom only in its citation.
    derivedFrom: 'the summary’s latitude and longitude, as the cited source located the property',
    note: null,
    rank: 1,
  };
}

export function ownershipSection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const section = sectionJson(ctx, 'ownership');
  const context = contextOf(ctx, section, strings(section?.source_refs));
  const values = [
    b.field('ownership', section, { key: 'owner_name', label: 'Owner of record', format: 'owner_name', summary: 'owner_name' }, context),
    b.field('ownership', section, { key: 'owner_name_2', label: 'Second owner', format: 'owner_name_2' }, context),
    b.field('ownership', section, { key: 'ownership_form', label: 'Form of ownership', format: 'ownership_form' }, context),
  ];
  return sectionOf('ownership', 'Ownership', values, b.limitations(strings(section?.limitations), sourcesOf(b.answers, section)));
}

export function assessmentSection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const section = sectionJson(ctx, 'assessment');
  const totalCell = isRecord(section?.total_value_dollars) ? section.total_value_dollars : null;
  const context = contextOf(ctx, section, strings(totalCell?.source_refs));
  const total = b.field('assessment', section, { key: 'total_value_dollars', label: 'Total assessed value', format: 'assessed_value_dollars', summary: 'assessed_value_dollars' }, context);
  const basis = text(section?.basis);
  if (basis && basis !== 'unavailable' && total.status !== 'unavailable') total.limitation = [total.limitation, `Basis: ${basis}.`].filter(Boolean).join(' ');
  const values = [
    b.field('assessment', section, { key: 'assessment_year', label: 'Assessment year', format: 'assessment_year' }, context),
    total,
    b.field('assessment', section, { key: 'land_value_dollars', label: 'Land value', format: 'land_value_dollars' }, context),
    b.field('assessment', section, { key: 'improvement_value_dollars', label: 'Improvement value', format: 'improvement_value_dollars' }, context),
  ];
  const dataDate = text(section?.data_date);
  const lines = [...strings(section?.limitations), ...(dataDate ? [`Data as of ${formatDay(dataDate)}.`] : [])];
  const limitations = b.limitations(lines, sourcesOf(b.answers, section));
  return sectionOf('assessment', 'Assessment', values, limitations, [], section?.status === 'unavailable' && !values.some((v) => v.status !== 'unavailable'));
}

export function taxSection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const section = sectionJson(ctx, 'tax');
  const context = contextOf(ctx, section, strings(section?.source_refs));
  const values = [
    b.field('tax', section, { key: 'tax_period', label: 'Tax period', format: 'tax_period' }, context),
    b.field('tax', section, { key: 'annual_tax_dollars', label: 'Annual tax', format: 'annual_tax_dollars' }, context),
    b.field('tax', section, { key: 'reported_balance_dollars', label: 'Reported balance', format: 'reported_balance_dollars' }, context),
  ];
  return sectionOf('tax', 'Tax', values, sectionLimitations(ctx, section, strings(section?.limitations)));
}

export function transferSection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const section = sectionJson(ctx, 'transfer');
  const context = contextOf(ctx, section, strings(section?.source_refs), 'No recorded sale for this property in the subject report.');
  const saleDate = b.field('transfer', section, { key: 'sale_date', label: 'Last sale date', format: 'last_sale_date', summary: 'last_sale_date' }, context);
  const price = b.field('transfer', section, { key: 'price_dollars', label: 'Last sale price', format: 'last_sale_price_dollars', summary: 'last_sale_price_dollars' }, context);
  // Shown as the answer says they are: published (the section's status), unless the answer marks one
  // derived or, for the market reading, states the basis it read the record by (the embedded
  // service's `acceptance_basis`: a price of 0 read as non-market).
  const saleType = b.field('transfer', section, { key: 'sale_type', label: 'Sale type', format: 'sale_type' }, context);
  const basis = text(section?.acceptance_basis);
  const acceptance = b.field(
    'transfer',
    section,
    { key: 'acceptance_code', label: 'Market or not', format: 'acceptance_code', ...(basis ? { derivedFrom: basis } : {}) },
    basis ? { ...context, status: 'derived' } : context,
  );
  const values = [saleDate, price, saleType, acceptance];
  // Plat's own sentences about the source (its date, that it gives one sale) cite it like the service's.
  const lines = strings(section?.limitations);
  const dataDate = text(section?.data_date);
  if (dataDate) lines.push(`Data as of ${formatDay(dataDate)}.`);
  const tables: ReportTable[] = [];
  const prior = priorSalesTable(ctx, section);
  if (prior) tables.push(prior);
  else if (text(section?.sale_type) === 'last_recorded_sale') lines.push('The source gives the last recorded sale only: earlier transfers are not in the answer.');
  return sectionOf('transfer', 'Transfer and prior sales', values, b.limitations(lines, sourcesOf(b.answers, section)), tables);
}

/** Earlier sales when the answer lists them (`prior_sales`): one row each, every cell cited. */
function priorSalesTable(ctx: SectionContext, section: Json | null): ReportTable | null {
  const rows = Array.isArray(section?.prior_sales) ? section.prior_sales.filter(isRecord) : [];
  if (rows.length === 0) return null;
  const { b } = ctx;
  const specs: FieldSpec[] = [
    { key: 'sale_date', label: 'Date', format: 'sale_date' },
    { key: 'price_dollars', label: 'Price', format: 'last_sale_price_dollars' },
    { key: 'sale_type', label: 'Type', format: 'sale_type' },
  ];
  return {
    id: 'prior-sales',
    title: 'Prior sales',
    columns: specs.map((spec) => ({ key: spec.key, label: spec.label })),
    rows: rows.map((row, index) => {
      const cells: Record<string, CitedValue> = {};
      const refs = strings(row.source_refs);
      for (const spec of specs) {
        const value = v3Value(row, spec.key, refs, row.status);
        cells[spec.key] = b.value(
          `transfer.prior.${index}.${spec.key}`,
          spec.label,
          [value ? candidateFromV3(b.answers, spec, value, 0) : null],
          value?.limitation ?? 'Not given for this sale.',
        );
      }
      return cells;
    }),
    note: null,
  };
}

export function buildingSection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const section = sectionJson(ctx, 'building') ?? (isRecord(ctx.item?.characteristics) ? (ctx.item.characteristics as Json) : null);
  const profileLimitation = strings(section?.limitations).join(' ') || null;
  const profileDerivedFrom = derivedFromText(section?.derived_from);
  // A profile's fields share its status, records and (for a synthetic profile) the record it was copied from.
  const { profile } = buildingProfile(ctx.item);
  // The permits' evidence (a new-construction permit's year and stories) is gathered where the
  // resolved subject gathers it, so the report and the grid weigh the same candidates.
  const permits = permitEvidence(b.answers, ctx.item);
  const missing = section?.status === 'unavailable' ? (profileLimitation ?? 'No building characteristics in the sample.') : missingText(ctx, 'Not published by any source in the answer.');
  const values: CitedValue[] = [];
  for (const spec of BUILDING_FIELDS) {
    const inSummary = spec.summary !== undefined && b.answers.summary !== null && spec.summary in b.answers.summary;
    if (!(profile && spec.key in profile) && !inSummary && !BUILDING_ALWAYS.has(spec.key)) continue;
    const recorded = fieldCandidates(b.answers, profile, spec, [], section?.status).candidates;
    const extra = evidenceCandidates(spec.key, recorded, permits);
    const sectionReason = section?.status === 'unavailable' ? missing : undefined;
    values.push(b.field('building', profile, spec, { refs: [], status: section?.status, missing, ...(sectionReason ? { sectionReason } : {}) }, extra));
  }
  for (const value of values) {
    if (value.status === 'synthetic' && value.derivedFrom === null && profileDerivedFrom) value.derivedFrom = profileDerivedFrom;
  }
  const limitations = [
    ...b.limitations(profileLimitation ? [profileLimitation] : [], sourcesOf(b.answers, section)),
    // What the subject's answers say against each other (shared/comparables/subject/contradictions.ts), each cited to both sides.
    ...(ctx.contradictions ?? []).map((contradiction) => ({ text: contradiction.text, citationIds: b.citationIds(contradiction.citations) })),
  ];
  return sectionOf('building', 'Building', values, ctx.item ? limitations : [...b.limitations([NOT_BOUGHT], []), ...limitations]);
}

export function landSection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const section = sectionJson(ctx, 'land');
  const context = contextOf(ctx, section, strings(section?.source_refs));
  const values = [b.field('land', section, { key: 'land_area_square_feet', label: 'Land area', format: 'land_area_sqft', summary: 'land_area_sqft' }, context)];
  return sectionOf('land', 'Land', values, b.limitations(strings(section?.limitations), sourcesOf(b.answers, section)));
}

const PERMIT_COLUMNS: FieldSpec[] = [
  { key: 'record_number', label: 'Permit', format: 'record_number' },
  { key: 'record_type', label: 'Type', format: 'record_type' },
  { key: 'status', label: 'Status', format: 'status' },
  { key: 'record_date', label: 'Issued', format: 'record_date' },
  { key: 'description', label: 'Work', format: 'description' },
  { key: 'link', label: 'Tied to the property by', format: 'link' },
];

export function permitsSection(ctx: SectionContext): ReportSection {
  const { b } = ctx;
  const section = sectionJson(ctx, 'permit');
  const records = Array.isArray(section?.records) ? section.records.filter(isRecord) : [];
  const limitations = sectionLimitations(ctx, section, strings(section?.limitations));
  const availability = text(section?.availability);
  const rows = records.map((record, index) => {
    const id = text(record.record_number) ?? String(index + 1);
    const refs = strings(record.source_refs);
    const cells: Record<string, CitedValue> = {};
    for (const spec of PERMIT_COLUMNS) {
      const field = `permit.${id}.${spec.key}`;
      if (spec.key === 'link') {
        const method = text(record.link_method);
        const confidence = typeof record.link_confidence === 'number' ? record.link_confidence : null;
        const citations = refs.map((ref) => citationForRef(b.answers, ref));
        const candidate: Candidate | null =
          method && citations.length > 0
            ? {
                key: `link:${id}`,
                raw: method,
                display: `${humanizeCode(method)}${confidence !== null && confidence < 1 ? ` (confidence ${confidence})` : ''}`,
                status: 'derived',
                citations,
                derivedFrom: `the permit's ${method === 'ssl_match' ? 'SSL' : method === 'address_match' ? 'address' : 'record'}, matched by the service`,
                note: null,
                rank: 0,
              }
            : null;
        cells[spec.key] = b.value(field, spec.label, [candidate], 'The answer does not say how this permit was tied to the property.');
        continue;
      }
      const value = v3Value(record, spec.key, refs, 'reported');
      cells[spec.key] = b.value(field, spec.label, [value ? candidateFromV3(b.answers, spec, value, 0) : null], 'Not given for this permit.');
    }
    return cells;
  });
  const total = typeof section?.total_count === 'number' ? section.total_count : records.length;
  const note =
    availability === 'unavailable'
      ? null
      : records.length === 0
        ? 'No permits for this property in the answer.'
        : section?.has_more === true || total > records.length
          ? `${records.length} of ${total} permits shown.`
          : `${records.length} permit${records.length === 1 ? '' : 's'}.`;
  const tables: ReportTable[] = ctx.item && availability !== 'unavailable' ? [{ id: 'permits', title: 'Building permits', columns: PERMIT_COLUMNS.map(({ key, label }) => ({ key, label })), rows, note }] : [];
  // No permits where the dataset covers the property is a finding, not a gap: the section is available.
  const section_ = sectionOf('permits', 'Permits', [], limitations, tables, !ctx.item || availability === 'unavailable');
  if (ctx.item && availability !== 'unavailable' && records.length === 0) section_.status = 'available';
  return section_;
}
