import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import { assessedAmount, FROM_OTHER_ROW, holdingsOf, parcelKeyOf, type OwnershipRow } from './holdings.ts';

const citation = (record: string) => ({ source: 'DC Office of Tax and Revenue', dataset: 'Real Property Tax Database', as_of: '2017-02-05T00:00:00Z', source_id: 'dc_otr_ownership', record_ref: record });
const fact = (value: string | number, record: string) => ({ value, status: 'reported', citation: citation(record) });

/** One row of the roll as a v2 owner search gives it: the row's property and the parcel it sits on. */
function row(propertyRef: string, own: Record<string, string | number>, land: Record<string, string | number> = {}, record = `rec_${propertyRef}`): OwnershipRow {
  const facts = (values: Record<string, string | number>, ref: string) => Object.fromEntries(Object.entries(values).map(([field, value]) => [field, fact(value, ref)]));
  return {
    propertyRef,
    items: [
      { entity_ref: propertyRef, entity_kind: 'property', facts: facts(own, record) },
      { entity_ref: 'parc_1', entity_kind: 'parcel', facts: facts({ ...own, ...land }, 'rec_parcel') },
    ],
  };
}

describe('parcelKeyOf', () => {
  it('keys a row by its SSL however it is spaced, else its account, else its parcel', () => {
    expect(parcelKeyOf(row('prop_a', { ssl: '0451    0022' }))).toBe('ssl:0451 0022');
    expect(parcelKeyOf(row('prop_b', { account_no: ' 50123 ' }))).toBe('account:50123');
    expect(parcelKeyOf(row('prop_c', {}))).toBe('parc_1');
    expect(parcelKeyOf({ propertyRef: 'prop_d', items: [{ entity_ref: 'prop_d', entity_kind: 'property', facts: {} }] })).toBe('prop_d');
  });
});

describe('holdingsOf', () => {
  const rows = [
    row('prop_bd', { ssl: '0451 0022', owner_name: 'JANE ROE JOHN ROE', address: '1 A ST NW' }, { assessed_value_dollars: 500000 }),
    row('prop_main', { ssl: '0451    0022', owner_name: 'JANE ROE', address: '1 A ST NW', assessed_value_dollars: 500000 }),
    row('prop_other', { ssl: '0451 0023', owner_name: 'JANE ROE', assessed_value_dollars: 70000 }),
  ];

  it('makes the rows of one parcel one holding, citing each row, its value taken once from the row that carries it', () => {
    const book = new CitationBook();
    const { holdings, rows: count } = holdingsOf(rows, book.cite);
    expect(count).toBe(3);
    expect(holdings.map((holding) => [holding.parcelKey, holding.records.map((record) => record.published), assessedAmount(holding)])).toEqual([
      ['ssl:0451 0022', ['JANE ROE JOHN ROE', 'JANE ROE'], 500000],
      ['ssl:0451 0023', ['JANE ROE'], 70000],
    ]);
    const [first] = holdings;
    expect(book.all().find((entry) => entry.id === first?.assessed.citationIds[0])?.recordRef).toBe('rec_prop_main');
    expect(first?.fromOtherRow).toEqual([]);
  });

  it('gives each name group its own rows’ values, a value only the other row carries marked and not summed', () => {
    const { byName } = holdingsOf(rows, new CitationBook().cite);
    expect(byName.get('JANE ROE')?.map((holding) => assessedAmount(holding))).toEqual([500000, 70000]);
    const [spouse] = byName.get('JANE ROE JOHN ROE') ?? [];
    expect(spouse?.records.map((record) => record.propertyRef)).toEqual(['prop_bd']);
    expect(spouse?.assessed.display).toBe('$500,000');
    expect(spouse?.fromOtherRow).toEqual(['assessed_value_dollars']);
    expect(spouse?.assessed.limitation).toBe(`Shown ${FROM_OTHER_ROW} (published under JANE ROE): no row of this name carries it.`);
    expect(spouse && assessedAmount(spouse)).toBeNull();
  });

  it('marks a value that only the parcel carries, from a row the answers do not list', () => {
    const { holdings } = holdingsOf([rows[0]!], new CitationBook().cite);
    expect(holdings[0]?.fromOtherRow).toEqual(['assessed_value_dollars']);
    expect(holdings[0]?.assessed.limitation).toBe(`Shown ${FROM_OTHER_ROW}: no row of this name carries it.`);
  });
});
