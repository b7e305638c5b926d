import { describe, expect, it } from 'vitest';
import { citationText } from './citation.ts';
import { citeRef, emptyRefIndex, indexV3Sources, placeRef, v2ProvenanceIndex } from './source-refs.ts';

const OTR = 'DC Office of Tax and Revenue';
// The independent dialect's v3 `sources[]`: the spec's four fields and publisher, dataset, as_of; no record_refs.
const independentSources = [
  { source_id: 'dc_otr_ownership', release_id: 20170205, sha256: 'a'.repeat(64), official_url: 'https://otr.cfo.dc.gov/', publisher: OTR, dataset: 'Real Property Tax Database', as_of: '2017-02-05' },
  { source_id: 'dc_otr', release_id: 20170205, sha256: 'b'.repeat(64), official_url: 'https://otr.cfo.dc.gov/', publisher: `${OTR} (roll)`, dataset: 'Tax roll', as_of: '2017-02-05' },
  { source_id: 'dc_gis_square_points', release_id: 20160816, sha256: 'c'.repeat(64), official_url: 'https://opendata.dc.gov/', source: 'DC GIS', published_at: '2016-08-16T00:00:00Z' },
];

function v3Index(sources: unknown) {
  const index = emptyRefIndex();
  indexV3Sources(index, sources);
  return index;
}

describe('a v3 ref finds its source by source_id, whatever decoration it carries', () => {
  const index = v3Index(independentSources);

  it.each([
    ['dc_otr_ownership', null],
    ['dc_otr_ownership@20170205', null],
    ['dc_otr_ownership:rec_1', 'dc_otr_ownership:rec_1'],
    ['dc_otr_ownership/0065 0007', 'dc_otr_ownership/0065 0007'],
    ['dc_otr_ownership#row-12', 'dc_otr_ownership#row-12'],
  ])('%s cites the ownership source (record %s)', (ref, recordRef) => {
    const citation = citeRef(index, ref);
    expect(citation).toMatchObject({ publisher: OTR, dataset: 'Real Property Tax Database', asOf: '2017-02-05', sourceId: 'dc_otr_ownership', releaseId: 20170205, recordRef, note: null });
  });

  it('takes the longest source id the ref starts with, and only at a character no id holds', () => {
    expect(citeRef(index, 'dc_otr@20170205').sourceId).toBe('dc_otr');
    expect(citeRef(index, 'dc_otr_ownership@20170205').sourceId).toBe('dc_otr_ownership');
    // `dc_otr_sale` is not a decoration of `dc_otr`: no source of the answer is named.
    expect(placeRef(index, 'dc_otr_sale@20170205')).toBeNull();
    expect(citeRef(index, 'dc_otr_sale@20170205')).toMatchObject({ publisher: null, recordRef: 'dc_otr_sale@20170205', note: 'The answer cites this record without naming its source.' });
  });

  it('cites the entry when the ref names another release, and says so', () => {
    const citation = citeRef(index, 'dc_otr_ownership@20160101');
    expect(citation).toMatchObject({ publisher: OTR, releaseId: 20170205 });
    expect(citation.note).toBe('The answer cites release 20160101 of dc_otr_ownership; its list of sources gives release 20170205.');
  });

  it('takes the publisher and date from `source` and `published_at` when the entry has no `publisher` and `as_of`', () => {
    const citation = citeRef(index, 'dc_gis_square_points@20160816');
    expect(citation).toMatchObject({ publisher: 'DC GIS', asOf: '2016-08-16T00:00:00Z', releaseId: 20160816 });
    expect(citationText(citation)).toMatch(/^DC GIS; as of 2016-08-16; source dc_gis_square_points; release 20160816/);
  });

  it("still reads the embedded service's record_refs index", () => {
    const embedded = v3Index([{ ...independentSources[0], record_refs: ['rec_23cf6780-2221-547e-b0e2-eaf741fda9ee'] }]);
    expect(citeRef(embedded, 'rec_23cf6780-2221-547e-b0e2-eaf741fda9ee')).toMatchObject({ publisher: OTR, sourceId: 'dc_otr_ownership', recordRef: 'rec_23cf6780-2221-547e-b0e2-eaf741fda9ee' });
  });
});

describe('v2 provenance', () => {
  const entry = { source_kind: 'source', publisher: OTR, release_id: '20170205', captured_at: '2017-02-05T00:00:00Z', official_url: 'https://otr.cfo.dc.gov/' };

  it.each([
    ['the decorated ref itself', 'dc_otr_ownership@20170205'],
    ['the bare id', 'dc_otr_ownership'],
  ])('resolves `<source_id>@<release_id>` refs against a source_ref that is %s', (_, sourceRef) => {
    const index = v2ProvenanceIndex([{ ...entry, source_ref: sourceRef }]);
    for (const ref of ['dc_otr_ownership@20170205', 'dc_otr_ownership']) {
      expect(citeRef(index, ref), ref).toMatchObject({ publisher: OTR, sourceId: 'dc_otr_ownership', releaseId: '20170205', asOf: '2017-02-05T00:00:00Z', recordRef: null, note: null });
    }
  });

  it("keeps the embedded service's record entries (a `source_id` beside a record ref) as records", () => {
    const index = v2ProvenanceIndex([{ ...entry, source_kind: 'record', source_ref: 'rec_1', source_id: 'dc_otr_ownership', synthetic: 'false' }]);
    expect(citeRef(index, 'rec_1')).toMatchObject({ publisher: OTR, sourceId: 'dc_otr_ownership', recordRef: 'rec_1' });
    expect(placeRef(index, 'rec_2')).toBeNull();
  });
});
