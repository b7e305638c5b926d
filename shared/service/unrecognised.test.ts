import { describe, expect, it } from 'vitest';
import { answerCitations, publishedRows } from './unrecognised.ts';
import { independentRelationships, independentSummary, OTR_CITATION } from './dialect-test-kit.ts';
import { envelope } from '../graph/test-kit.ts';

describe('answerCitations', () => {
  it('collects the v4 citation objects of a summary wherever they sit, alternatives included, each once', () => {
    const views = answerCitations(independentSummary());
    expect(views.map((view) => [view.publisher, view.sourceId, view.asOf])).toEqual([
      ['DC Office of Tax and Revenue', 'dc_otr_ownership', '2017-02-05T00:00:00Z'],
      ['DC Office of Tax and Revenue', 'dc_otr_ownership', '2016-02-05T00:00:00Z'],
      ['DC Office of Tax and Revenue', 'dc_otr_assessment', '2017-02-05T00:00:00Z'],
      ['DC Office of Tax and Revenue', 'dc_otr_sale', '2017-02-05T00:00:00Z'],
      ['DC Office of the Chief Technology Officer', 'dc_gis_square_points', '2020-01-01T00:00:00Z'],
    ]);
  });

  it('takes v2 provenance sources, and a `<source_id>@<release_id>` ref they place adds nothing more', () => {
    const views = answerCitations(independentRelationships());
    expect(views.map((view) => [view.publisher, view.sourceId, view.releaseId])).toEqual([
      ['DC Office of Tax and Revenue', 'dc_otr_ownership', '20170205'],
      ['DC Office of Tax and Revenue', 'dc_otr_assessment', '20170205'],
    ]);
  });

  it('resolves v3 refs to the sources[] entry by source id whatever decoration they carry, and keeps a ref no source places', () => {
    const answer = {
      data: {
        sources: [{ source_id: 'dc_otr_ownership', release_id: 20170205, sha256: 'a'.repeat(64), official_url: 'https://otr.cfo.dc.gov/', publisher: 'DC Office of Tax and Revenue', dataset: 'Real Property Tax Database', as_of: '2017-02-05' }],
        items: [{ sections: { ownership: { owner_name: { value: 'JOEL KUIPERS', status: 'reported', source_refs: ['dc_otr_ownership@20170205'] } }, transfer: { source_refs: ['dc_otr_sale@20170205'] } } }],
      },
    };
    expect(answerCitations(answer)).toEqual([
      expect.objectContaining({ publisher: 'DC Office of Tax and Revenue', sourceId: 'dc_otr_ownership', releaseId: 20170205 }),
      { publisher: null, dataset: null, asOf: null, sourceId: null, recordRef: 'dc_otr_sale@20170205', synthetic: false },
    ]);
  });

  it('reads the embedded service’s provenance (record refs placed by source_ref) the same way', () => {
    const views = answerCitations(envelope('relationships1708Depth1'));
    expect(views.map((view) => [view.sourceId, view.recordRef])).toEqual([
      ['dc_otr_ownership', 'rec_23cf6780-2221-547e-b0e2-eaf741fda9ee'],
      ['dc_otr_assessment', 'rec_1b9a121d-8953-5913-9352-9205ab55c004'],
    ]);
  });

  it('finds nothing in an answer that names no source', () => {
    expect(answerCitations({ value: 3, note: 'x' })).toEqual([]);
    expect(answerCitations(null)).toEqual([]);
  });
});

describe('publishedRows', () => {
  it('lays a value out as key/value rows by path, lists of plain values on one row, citations left to the chips', () => {
    const { rows, more } = publishedRows({ value: { low: 1200, high: 1500 }, citation: OTR_CITATION, rooms: ['kitchen', 'den'], ok: true, none: null, parts: [{ a: 1 }, { a: 2 }] });
    expect(rows).toEqual([
      { path: 'value.low', text: '1200' },
      { path: 'value.high', text: '1500' },
      { path: 'rooms', text: 'kitchen, den' },
      { path: 'ok', text: 'true' },
      { path: 'none', text: 'null' },
      { path: 'parts[0].a', text: '1' },
      { path: 'parts[1].a', text: '2' },
    ]);
    expect(more).toBe(0);
  });

  it('gives a bare value one row, and counts what it leaves out past the cap', () => {
    expect(publishedRows('18402.50').rows).toEqual([{ path: '', text: '18402.50' }]);
    const many = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`f${i}`, i]));
    expect(publishedRows(many, 60)).toMatchObject({ more: 10 });
  });
});
