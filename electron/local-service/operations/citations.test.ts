import { describe, expect, it } from 'vitest';
import type { Citation } from '../sample-store.ts';
import { SourceCollector } from './citations.ts';

const citation = (source_id: string, record_ref: string): Citation => ({
  source_id, record_ref, publisher: 'P', dataset: 'D', as_of: '2017-02-05T00:00:00Z', release_id: 20170205, sha256: 'a'.repeat(64), official_url: 'u', synthetic: false,
});

describe('SourceCollector', () => {
  it('lists, under each source, the records an answer cites, so every source_ref names its publisher', () => {
    const sources = new SourceCollector();
    expect(sources.cite(citation('otr', 'rec_1'))).toBe('rec_1');
    sources.cite(citation('otr', 'rec_2'));
    sources.cite(citation('otr', 'rec_1'));
    sources.cite(citation('gis', 'rec_3'));
    sources.add(citation('cama', 'rec_4'));
    expect(sources.list().map((s) => [s.source_id, s.record_refs])).toEqual([['otr', ['rec_1', 'rec_2']], ['gis', ['rec_3']], ['cama', []]]);
  });
});
