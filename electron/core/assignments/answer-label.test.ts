import { describe, expect, it } from 'vitest';
import { answerLabel, citationsOf, compactParameters } from './answer-label.ts';

const subject = { ref: 'prop_0b7c2f3e-5d0a-5c1e-9f43-2a6d8e1b4c70', label: '1708 21ST ST NW' };

describe('kept answer names', () => {
  it('names a request about the subject the way the person knows it', () => {
    expect(answerLabel('v4.summary', { path: { q_id: subject.ref } }, subject)).toBe('Summary of 1708 21ST ST NW');
    expect(answerLabel('v3.recordQuery', { body: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: subject.ref } }, subject)).toBe(
      'Subject report for 1708 21ST ST NW',
    );
    expect(answerLabel('v4.summary', { path: { q_id: 'parc_x' } }, subject)).toBe('Summary of parc_x');
    expect(answerLabel('v2.resolveEntities', { body: { items: [{ identifiers: [{ scheme: 'address', value: '1708 21ST ST NW' }] }] } }, null)).toBe(
      'Resolution of "1708 21ST ST NW"',
    );
    expect(answerLabel('v4.search', { query: { kind: 'permit', jurisdiction: '11001' } }, null)).toBe('Records search: permit in 11001');
  });

  it('writes the parameters compactly and bounded', () => {
    expect(compactParameters({ path: { q_id: 'prop_1' }, query: { fields: ['a', 'b'], skip: undefined } })).toBe('q_id=prop_1; fields=["a","b"]');
    expect(compactParameters({ body: { text: 'x'.repeat(5_000) } })).toHaveLength(1_000);
  });

  it('counts distinct citations of every generation', () => {
    const otr = { source: 'DC OTR', dataset: 'Tax roll', as_of: '2017-02-05' };
    const v4 = { data: { owner_name: { citation: otr, alternatives: [{ value: 'x', citation: otr }] }, use_code: { citation: { ...otr, dataset: 'Other' } } } };
    expect(citationsOf(v4)).toHaveLength(2);
    expect(citationsOf({ data: { sources: [{ source_id: 'a' }, { source_id: 'b' }, { source_id: 'a' }] } })).toHaveLength(2);
    expect(citationsOf({ data: { items: [{ provenance: { sources: [{ source_ref: 'r1' }] } }] } })).toHaveLength(1);
    expect(citationsOf(null)).toEqual([]);
  });
});
