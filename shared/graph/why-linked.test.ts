import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import { buildGraph, linkKey, type GraphAnswer } from './build-graph.ts';
import { modelLinks } from './links.ts';
import { envelope, ids, withIndependentProvenance } from './test-kit.ts';
import { whyLinked } from './why-linked.ts';

const OTR = 'DC Office of Tax and Revenue';

function explain(rootId: string, answers: GraphAnswer[], key: (links: ReturnType<typeof modelLinks>) => string | undefined) {
  const { model } = buildGraph(rootId, answers);
  const book = new CitationBook();
  const found = key(modelLinks(model));
  if (found === undefined) throw new Error('no such link in the answers');
  const why = whyLinked(model, found, book.cite);
  if (why === null) throw new Error('no explanation');
  const cited = (id: string) => book.all().find((citation) => citation.id === id);
  return { why, cited };
}

const poozesh: GraphAnswer[] = [
  { kind: 'relationships', envelope: envelope('relationshipsPoozesh') },
  { kind: 'owner-search', name: 'ABDOLLAH POOZESH', envelope: envelope('searchPoozesh') },
];

describe('whyLinked', () => {
  it('explains a same-SSL link from the real traversal, with its record cited and its validity', () => {
    const { why, cited } = explain(ids.property1708, [{ kind: 'relationships', envelope: envelope('relationships1708Depth2') }], () =>
      linkKey(ids.account1708, 'assessed_in', ids.parcel1708),
    );
    expect(why).toMatchObject({
      title: 'Account 0065 0007 — assesses → SSL 0065 0007',
      rule: 'same_ssl',
      strength: 'fact',
      warning: null,
      confidence: 1,
      validity: 'As of the records released 2017-02-05; the records give no end date.',
    });
    expect(why.because).toBe(
      `Same SSL in one record: Account 0065 0007 and SSL 0065 0007 both carry SSL 0065 0007 in ${OTR}, Real Property Tax Database: assessment neighborhood OLD CITY II (tax year 2016).`,
    );
    expect(why.records.map((record) => record.recordRef)).toEqual(['rec_1b9a121d-8953-5913-9352-9205ab55c004']);
    expect(cited(why.records[0]?.citationId ?? '')).toMatchObject({
      publisher: OTR,
      sourceId: 'dc_otr_assessment',
      recordRef: 'rec_1b9a121d-8953-5913-9352-9205ab55c004',
      releaseId: '20170205',
      synthetic: false,
    });
    expect(why.serviceSays).toMatch(/^Both carry the same SSL/);
  });

  it('explains a link one record makes, citing every record the service names', () => {
    const { why } = explain(ids.property1708, [{ kind: 'relationships', envelope: envelope('relationships1708Depth2') }], () =>
      linkKey(ids.property1708, 'taxed_in', ids.account1708),
    );
    expect(why.rule).toBe('same_record');
    expect(why.because).toMatch(/^One record names both: 1708 21ST ST NW and Account 0065 0007 appear in the same row of DC Office of Tax and Revenue/);
    expect(why.records).toHaveLength(2);
  });

  it('names the kinds when the two ends read the same (a property and its address)', () => {
    const { why } = explain(ids.property1708, [{ kind: 'relationships', envelope: envelope('relationships1708Depth2') }], (links) =>
      links.find((link) => link.key.startsWith('served_by:prop_'))?.key,
    );
    expect(why.because).toMatch(/^One record names both: the property 1708 21ST ST NW and the address 1708 21ST ST NW appear in the same row of /);
  });

  it('explains the service’s same-owner link as a lead, with the warning and both ownership records', () => {
    const { why, cited } = explain(ids.propertyPoozesh, poozesh, () => linkKey(ids.accountPoozesh, 'same_owner', ids.accountPoozesh2));
    expect(why.strength).toBe('lead');
    expect(why.rule).toBe('same_owner_name');
    expect(why.because).toContain('both read “ABDOLLAH POOZESH” after normalisation');
    expect(why.warning).toMatch(/^A lead, not a fact: different people and companies can share a name/);
    expect(why.confidence).toBe(0.6);
    expect(why.confidenceText).toMatch(/^0\.6 .*a lead/);
    expect(why.records.map((record) => cited(record.citationId)?.sourceId)).toEqual(['dc_otr_ownership', 'dc_otr_ownership']);
  });

  it('explains the owner of record as a fact, the owner’s other holding by its own record too', () => {
    const ownerLinks = (links: ReturnType<typeof modelLinks>, holding: string) => links.find((link) => link.owner && link.source === holding)?.key;
    const fact = explain(ids.propertyPoozesh, poozesh, (links) => ownerLinks(links, ids.propertyPoozesh)).why;
    expect(fact).toMatchObject({ rule: 'owner_of_record', strength: 'fact', warning: null, title: '1709 17TH ST NW — owned by → ABDOLLAH POOZESH' });
    expect(fact.because).toBe('The ownership record of 1709 17TH ST NW names “ABDOLLAH POOZESH” as its owner.');
    expect(fact.validity).toBe('Owner of record as of the roll released 2017-02-05; the record gives no earlier or later owner.');

    const { why: other, cited } = explain(ids.propertyPoozesh, poozesh, (links) => ownerLinks(links, ids.propertyPoozesh2));
    expect(other).toMatchObject({ rule: 'owner_of_record', strength: 'fact', warning: null, confidence: 1 });
    expect(other.because).toBe('The ownership record of 1620 Q ST NW names “ABDOLLAH POOZESH” as its owner.');
    expect(other.records.map((record) => cited(record.citationId)?.recordRef)).toEqual(['rec_9fc93e21-30ec-5501-8571-88f0bf084983']);
  });

  it('says Plat, not the service, joined a spelling to a portfolio’s name, and gives no confidence it does not have', () => {
    const search = envelope('searchDc1');
    const items = (search.data as { items: Array<{ property_ref: string; facts: { owner_name: { value: string } } }> }).items;
    const variant = items[0]!.property_ref;
    for (const item of items) if (item.property_ref === variant) item.facts.owner_name.value = 'District of Columbia';
    const { why } = explain('owner:DISTRICT OF COLUMBIA', [{ kind: 'owner-search', name: 'DISTRICT OF COLUMBIA', envelope: search }], (links) => links.find((link) => link.owner?.claim.published === 'District of Columbia')?.key);
    expect(why.strength).toBe('lead');
    expect(why.confidence).toBeNull();
    expect(why.confidenceText).toMatch(/^None given: Plat grouped the names itself/);
    expect(why.because).toMatch(/names “District of Columbia”, which reads “DISTRICT OF COLUMBIA” after normalisation .* as does “DISTRICT OF COLUMBIA”, the name this owner is grouped under\.$/);
  });

  it('explains a link through a placeholder SSL as a lead that is not a parcel key', () => {
    const { why } = explain(ids.parcelPlaceholder, [{ kind: 'relationships', envelope: envelope('relationshipsPlaceholder') }], (links) => links.find((link) => link.target.startsWith('addr_'))?.key);
    expect(why.rule).toBe('invalid_key');
    expect(why.strength).toBe('lead');
    expect(why.because).toMatch(/^SSL 0000 0000 is a placeholder .* The service links 2600 INDEPENDENCE AVE SE through it\.$/);
    expect(why.warning).toMatch(/^A lead, not a fact: SSL 0000 0000 is a placeholder/);
  });

  it('cites a record the answers name without its source by its ref, and says so', () => {
    const { why, cited } = explain(ids.parcel1708, [{ kind: 'connected', qId: ids.parcel1708, depth: 2, envelope: envelope('connected1708') }], () =>
      linkKey(ids.property1708, 'located_in', ids.parcel1708),
    );
    // v4 gives the citation of the first supporting record: cited in full.
    expect(cited(why.records[0]?.citationId ?? '')).toMatchObject({ publisher: OTR, recordRef: 'rec_23cf6780-2221-547e-b0e2-eaf741fda9ee' });
    expect(why.validity).toBe('The answers give no validity dates for this link.');

    const bare = envelope('connected1708');
    const items = (bare.data as { items: Array<Record<string, unknown>> }).items;
    for (const item of items) delete item.citation;
    const uncited = explain(ids.parcel1708, [{ kind: 'connected', qId: ids.parcel1708, depth: 2, envelope: bare }], () => linkKey(ids.property1708, 'located_in', ids.parcel1708));
    expect(uncited.why.records[0]?.what).toBe('Source not named in the answers');
    expect(uncited.cited(uncited.why.records[0]?.citationId ?? '')).toMatchObject({ publisher: null, recordRef: 'rec_23cf6780-2221-547e-b0e2-eaf741fda9ee', note: 'The answer cites this record without naming its source.' });
  });

  it.each([
    ['the decorated ref', false],
    ['the bare source id', true],
  ])('cites the service’s refs `<source_id>@<release_id>` to a provenance source whose source_ref is %s', (_, bare) => {
    const answer = withIndependentProvenance(envelope('relationships1708Depth2'), bare);
    const { why, cited } = explain(ids.property1708, [{ kind: 'relationships', envelope: answer }], () => linkKey(ids.account1708, 'assessed_in', ids.parcel1708));
    expect(why.records.map((record) => record.recordRef)).toEqual(['dc_otr_assessment@20170205']);
    expect(why.records[0]?.what).toBe(OTR);
    expect(cited(why.records[0]?.citationId ?? '')).toMatchObject({ publisher: OTR, sourceId: 'dc_otr_assessment', releaseId: '20170205', asOf: '2017-02-05T00:00:00Z', recordRef: null, note: null });
    expect(why.because).toMatch(new RegExp(`both carry SSL 0065 0007 in ${OTR}\\.$`));
  });

  it('answers null for a link the model does not hold', () => {
    const { model } = buildGraph(ids.property1708, []);
    expect(whyLinked(model, 'located_in:a→b', new CitationBook().cite)).toBeNull();
  });
});
