import { describe, expect, it } from 'vitest';
import {
  attributeRows,
  canSummarise,
  entityKindLabel,
  identifierRows,
  pageTitle,
  provenanceCitations,
  summaryView,
} from './entity-model.ts';
import { envelope, ids } from '../../../shared/graph/test-kit.ts';
import { independentSummary, OTR_CITATION } from '../../../shared/service/dialect-test-kit.ts';

const PARCEL = 'parc_b224a646-7a37-5c5f-8006-5d110b6f4942';
const PROPERTY = 'prop_37d633c0-1111-5222-8333-944455556666';
const ACCOUNT = 'acct_1f8e5dc3-1111-5222-8333-944455556666';

const otr = { source: 'DC Office of Tax and Revenue', dataset: 'Real Property Tax Database', as_of: '2017-02-05T00:00:00Z', synthetic: false };
const synthetic = { source: 'Plat synthetic sample (not a public record)', dataset: 'Imputed characteristics', as_of: '2022-11-20T00:00:00Z', synthetic: true };

describe('entity ids', () => {
  it('names the kind behind each prefix, and knows which ids the summary takes', () => {
    expect(entityKindLabel(PARCEL)).toBe('parcel');
    expect(entityKindLabel(ACCOUNT)).toBe('tax account');
    expect(entityKindLabel('rec_abc')).toBe('entity');
    expect(canSummarise(PROPERTY)).toBe(true);
    expect(canSummarise('rec_b224a646-7a37-5c5f-8006-5d110b6f4942')).toBe(false);
  });
});

describe('pageTitle', () => {
  it('names the entity from its record by what a person recognises, the address beside an SSL', () => {
    expect(pageTitle(ids.parcel1708, envelope('entityParcel1708'), undefined)).toEqual({
      names: ['SSL 0065 0007', '1708 21ST ST NW'],
      invalidKey: null,
      areaUid: 'area_us_dc',
    });
    expect(pageTitle(ids.property1708, envelope('entityProperty1708'), undefined).names).toEqual(['1708 21ST ST NW', 'SSL 0065 0007']);
  });

  it('says when the key is a placeholder, and falls back to the caption another screen gave until the record is held', () => {
    expect(pageTitle(ids.parcelPlaceholder, envelope('entityPlaceholder'), undefined)).toMatchObject({
      names: ['SSL 0000 0000: not a valid parcel key', expect.any(String)],
      invalidKey: expect.stringMatching(/^SSL 0000 0000 is a placeholder/),
    });
    expect(pageTitle(ids.parcel1708, null, '1708 21ST ST NW')).toEqual({ names: ['1708 21ST ST NW'], invalidKey: null, areaUid: null });
    expect(pageTitle(ids.parcel1708, envelope('connectedNotFound'), undefined).names).toEqual([]);
  });
});

describe('summaryView', () => {
  it('lists canonical fields in order, each best value cited, alternatives beside it, synthetic ones marked', () => {
    const view = summaryView({
      year_built: { value: 1890, status: 'synthetic', citation: synthetic, alternatives: [] },
      address: {
        value: '1128 6TH ST NW',
        status: 'reported',
        citation: otr,
        alternatives: [{ value: '1128 6th Street NW', status: 'reported', citation: { ...otr, source: 'DC Department of Consumer and Regulatory Affairs' } }],
      },
      limitations: ['living_area_sqft: no source in the sample publishes living area.'],
    });
    expect(view.rows.map((row) => row.field)).toEqual(['address', 'year_built']);
    const [address, year] = view.rows;
    expect(address?.best?.citation.publisher).toBe('DC Office of Tax and Revenue');
    expect(address?.alternatives.map((a) => [a.text, a.citation.publisher])).toEqual([['1128 6th Street NW', 'DC Department of Consumer and Regulatory Affairs']]);
    expect(year?.best?.synthetic).toBe(true);
    expect(year?.best?.citation.synthetic).toBe(true);
    expect(view.limitations).toHaveLength(1);
  });

  it('shows an entry of another shape as published, with no citation invented', () => {
    const view = summaryView({ bedrooms: 4, custom_field: { anything: true } });
    expect(view.rows.map((row) => [row.field, row.best, row.published])).toEqual([
      ['bedrooms', null, { value: 4, citations: [] }],
      ['custom_field', null, { value: { anything: true }, citations: [] }],
    ]);
  });

  it('reads another service’s summary under data.fields, by Plat’s names, each cited; an entry it cannot read keeps its citations', () => {
    const data = independentSummary({ roof: { material: 'slate', citation: OTR_CITATION } }).data as Record<string, unknown>;
    const view = summaryView(data);
    expect(view.rows.map((row) => [row.label, row.best?.text ?? null, row.best?.citation.publisher ?? null])).toEqual([
      ['Address', '1708 21ST ST NW', 'DC Office of Tax and Revenue'],
      ['Owner name', 'JOEL KUIPERS', 'DC Office of Tax and Revenue'],
      ['Year built', '1900', 'DC Office of Tax and Revenue'],
      ['Assessed value', '$1,361,000', 'DC Office of Tax and Revenue'],
      ['Last sale price', '$1,361,000', 'DC Office of Tax and Revenue'],
      ['Last sale date', '2013-12-17', 'DC Office of Tax and Revenue'],
      ['Effective year built', expect.any(String), 'DC Office of Tax and Revenue'],
      ['Latitude', '38.9128', 'DC Office of the Chief Technology Officer'],
      ['Longitude', '-77.0468', 'DC Office of the Chief Technology Officer'],
      ['Roof', null, null],
    ]);
    expect(view.rows[1]?.alternatives.map((alternative) => alternative.text)).toEqual(['KUIPERS JOEL']);
    expect(view.rows.at(-1)?.published).toEqual({ value: { material: 'slate', citation: OTR_CITATION }, citations: [expect.objectContaining({ sourceId: 'dc_otr_ownership' })] });
    // Nothing about the answer itself (its q_id, the `fields` holder) is shown as a field.
    expect(view.rows.some((row) => row.field === 'q_id' || row.field === 'fields')).toBe(false);
  });
});

describe('the v2 record', () => {
  const sources = [
    { source_ref: 'rec_1', source_kind: 'record', publisher: 'DC Office of Tax and Revenue', captured_at: '2017-02-05T00:00:00Z', synthetic: 'false' },
    { source_ref: 'rec_2', source_kind: 'record', publisher: 'Plat synthetic sample (not a public record)', captured_at: '2022-11-20T00:00:00Z', synthetic: 'true' },
  ];

  it('reads the provenance block, synthetic written as text included', () => {
    const citations = provenanceCitations(sources);
    expect(citations.records.get('rec_1')?.synthetic).toBe(false);
    expect(citations.records.get('rec_2')?.synthetic).toBe(true);
  });

  it('cites identifiers through their source refs', () => {
    const rows = identifierRows([{ scheme: 'ssl', value: '0449    0040', source_refs: ['rec_1'] }, 'bare'], provenanceCitations(sources));
    expect(rows[0]).toMatchObject({ scheme: 'ssl', value: '0449    0040' });
    expect(rows[0]?.citation?.publisher).toBe('DC Office of Tax and Revenue');
    expect(rows[1]).toEqual({ scheme: '', value: 'bare', citation: null });
  });

  it('cites identifiers and attributes through refs `<source_id>@<release_id>`, and through the entity’s own source_refs', () => {
    // The independent dialect: one provenance entry per source, its source_ref the decorated ref.
    const index = provenanceCitations([
      { source_ref: 'dc_otr_ownership@20170205', source_kind: 'source', publisher: 'DC Office of Tax and Revenue', release_id: '20170205', captured_at: '2017-02-05T00:00:00Z', official_url: 'https://otr.cfo.dc.gov/' },
    ]);
    const entityRefs = ['dc_otr_ownership@20170205'];
    const identifiers = identifierRows([{ scheme: 'ssl', value: '0065    0007' }, { scheme: 'address', value: '1708 21ST ST NW', source_refs: ['dc_otr_ownership'] }], index, entityRefs);
    expect(identifiers.map((row) => [row.scheme, row.citation?.publisher, row.citation?.asOf])).toEqual([
      ['ssl', 'DC Office of Tax and Revenue', '2017-02-05T00:00:00Z'],
      ['address', 'DC Office of Tax and Revenue', '2017-02-05T00:00:00Z'],
    ]);
    const attributes = attributeRows({ owner_name: 'JOEL KUIPERS', use_code: { value: '24', source_refs: ['dc_otr_ownership@20170205'] } }, index, entityRefs);
    expect(attributes.map((row) => [row.field, row.best?.text ?? null, row.best?.citation?.publisher ?? null])).toEqual([
      ['owner_name', 'JOEL KUIPERS', 'DC Office of Tax and Revenue'],
      ['use_code', '24', 'DC Office of Tax and Revenue'],
    ]);
  });

  it('reads cited attributes with their alternatives, cites plain ones by source ref, and leaves the rest uncited', () => {
    const rows = attributeRows(
      {
        owner_name: { value: 'GALBRAITH AME ZION CHURCH', citation: otr, alternatives: [] },
        bedrooms: { value: 4, synthetic: true, citation: synthetic },
        zoning: { value: 'R-4', source_refs: ['rec_1'] },
        note: 'plain',
      },
      provenanceCitations(sources),
    );
    expect(rows.map((row) => [row.field, row.best?.text ?? null, row.best?.synthetic ?? null, row.published?.value ?? null])).toEqual([
      ['owner_name', 'GALBRAITH AME ZION CHURCH', false, null],
      ['bedrooms', '4', true, null],
      ['zoning', 'R-4', false, null],
      ['note', null, null, 'plain'],
    ]);
  });
});
