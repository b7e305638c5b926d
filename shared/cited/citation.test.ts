import { describe, expect, it } from 'vitest';
import { asSynthetic, citationLabel, citationText, documentCitation, fromV3Source, publisherName, publisherShortName, SYNTHETIC_PUBLISHER } from './citation.ts';

describe('document citations', () => {
  const otr = fromV3Source({
    source_id: 'dc_otr_ownership', release_id: 20170205, sha256: 'a'.repeat(64), official_url: 'https://www.taxpayerservicecenter.com/',
    publisher: 'DC Office of Tax and Revenue', dataset: 'Real Property Tax Database', as_of: '2017-02-05T00:00:00Z', synthetic: false, record_refs: ['rec_1'],
  });

  it('keeps the record index out of the citation and writes the endnote in full', () => {
    expect(otr.extra).toEqual({});
    const text = citationText(documentCitation({ ...otr, recordRef: 'rec_1' }));
    expect(text).toBe(`DC Office of Tax and Revenue; Real Property Tax Database; as of 2017-02-05; record rec_1; release 20170205; sha256 ${'a'.repeat(64)}; https://www.taxpayerservicecenter.com/`);
    expect(citationLabel(otr)).toBe('DC OTR · 2017-02-05');
  });

  it('never leaves a synthetic citation under a real publisher', () => {
    const synthetic = documentCitation({ ...otr, synthetic: true });
    expect(synthetic).toMatchObject({ publisher: SYNTHETIC_PUBLISHER, dataset: null, synthetic: true });
    expect(synthetic.note).toBe('Made up by the sample, not published by DC Office of Tax and Revenue.');
    const sample = documentCitation({ ...otr, publisher: SYNTHETIC_PUBLISHER, dataset: 'Imputed', synthetic: true });
    expect(asSynthetic(sample)).toBe(sample);
  });
});

describe('publisher names', () => {
  const long = 'Montgomery County Department of Permitting Services';

  it('are never cut: in full everywhere, a short form only for the publishers Plat knows or before a comma', () => {
    expect(publisherName(long)).toBe(long);
    expect(publisherShortName(long)).toBe(long);
    expect(publisherShortName('Prince George’s County Office of Information Technology, GIS')).toBe('Prince George’s County Office of Information Technology');
    expect(publisherShortName('DC Office of Tax and Revenue')).toBe('DC OTR');
    expect(citationText(documentCitation({ publisher: long, dataset: 'Permits', asOf: '2020-01-01', synthetic: false }))).toMatch(new RegExp(`^${long}; Permits; as of 2020-01-01`));
  });
});
