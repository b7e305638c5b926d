import { describe, expect, it } from 'vitest';
import { CitationBook } from '../cited/citation-book.ts';
import { CitedValueSchema } from '../cited/value.ts';
import { parcelRunsheet, runsheetCsv, type RunsheetInput } from './runsheet.ts';
import { independentCatalog, independentSearchEnvelope } from '../service/record-fields-fixtures.ts';
import { envelope, ids } from './test-kit.ts';

function runsheet(input: RunsheetInput) {
  const book = new CitationBook();
  return { sheet: parcelRunsheet(input, book.cite), book };
}

const of934 = (): RunsheetInput => ({ parcelRef: ids.parcel934, entity: envelope('entity934'), records: [envelope('permits934'), envelope('sales934')] });

describe('parcelRunsheet', () => {
  it('lists the permit, the sale and the owner of record of 934 N ST NW in date order, each cited', () => {
    const { sheet, book } = runsheet(of934());
    expect(sheet.problems).toEqual([]);
    expect(sheet.parcel).toBe('SSL 0368 0909');
    expect(sheet.entries.map((entry) => [entry.day, entry.event, entry.party.display, entry.price?.display ?? null])).toEqual([
      ['2012-07-30', 'permit', '934 N STREET COLLABORATIVE LLC', null],
      ['2014-02-26', 'sale', '—', '$0 (non-market or no price)'],
      ['2017-02-05', 'owner_of_record', 'GERRY M COATES', null],
    ]);
    for (const entry of sheet.entries) {
      for (const value of [entry.date, entry.party, ...(entry.price ? [entry.price] : [])]) {
        expect(CitedValueSchema.parse(value)).toEqual(value);
        if (value.status !== 'unavailable') expect(value.citationIds.length).toBeGreaterThan(0);
      }
    }
    const permitSource = book.all().find((citation) => citation.id === sheet.entries[0]?.party.citationIds[0]);
    expect(permitSource).toMatchObject({ sourceId: 'dc_dcra_new_building_permits', recordRef: 'rec_6b919072-ac10-5aa9-920b-7a9ec57f374b' });
    expect(sheet.entries[0]?.detail).toContain('B1207114');
    expect(sheet.entries[1]?.detail).toBe('Last recorded sale of the lot. Price 0: non-market or no price.');
  });

  it('states the gaps in words, dating the owner by the roll’s release', () => {
    const { sheet } = runsheet(of934());
    expect(sheet.conflicts).toEqual([]);
    expect(sheet.gaps).toEqual([
      'The records hold no trace of deeds, liens, mortgages or grantors and grantees for SSL 0368 0909: the tax roll names an owner of record and the last sale, not the instruments behind them. The recorder of deeds holds those.',
      'No earlier transfers in the sample: OTR publishes each lot’s last sale only.',
      'The sale record names no buyer or seller. The owner of record as of the roll released 2017-02-05, GERRY M COATES, may or may not be the buyer of 2014-02-26: the records do not say.',
      'The permit of 2012-07-30 names 934 N STREET COLLABORATIVE LLC; the owner of record as of the roll released 2017-02-05 is GERRY M COATES. The recorded sale of 2014-02-26 falls between them. The records do not say how ownership passed between them.',
    ]);
    expect(sheet.entries.find((entry) => entry.event === 'owner_of_record')?.detail).toBe('As of the roll released 2017-02-05.');
    expect(JSON.stringify(sheet)).not.toMatch(/valid from|still valid/i);
  });

  it('shows the two owners of record of 0451 0828 on 2017-02-05 as a conflict, with both records', () => {
    const { sheet, book } = runsheet({ parcelRef: ids.parcel0451, entity: envelope('entityParcel0451'), records: [envelope('ownership0451')] });
    const owners = sheet.entries.filter((entry) => entry.event === 'owner_of_record');
    expect(owners.map((entry) => [entry.day, entry.party.display, entry.recordRef, entry.conflict])).toEqual([
      ['2017-02-05', 'BRUNO A CHUMPITAZI MD PC V DIAZ', 'rec_f905c9f6-233c-58e9-9cc9-c059ff23905e', true],
      ['2017-02-05', 'B CHUMPITAZI', 'rec_3a7b6da0-622d-54eb-bb3c-9a3f91138488', true],
    ]);
    expect(sheet.conflicts).toEqual([
      {
        day: '2017-02-05',
        keys: ['owner:rec_f905c9f6-233c-58e9-9cc9-c059ff23905e', 'owner:rec_3a7b6da0-622d-54eb-bb3c-9a3f91138488'],
        names: ['BRUNO A CHUMPITAZI MD PC V DIAZ', 'B CHUMPITAZI'],
        text: 'Conflict: 2 records name 2 different owners of record for this parcel as of the roll released 2017-02-05: BRUNO A CHUMPITAZI MD PC V DIAZ and B CHUMPITAZI. The records do not say which holds title, or whether each holds a share; Plat shows both and chooses neither.',
      },
    ]);
    // "What the records do not show" opens with the conflict, then what they hold no trace of.
    expect(sheet.gaps[0]).toBe(sheet.conflicts[0]?.text);
    expect(sheet.gaps[1]).toMatch(/^The records hold no trace of deeds, liens, mortgages or grantors and grantees for SSL 0451 0828:/);
    // Each owner cites its own row of the roll.
    const cited = owners.map((entry) => book.all().find((citation) => citation.id === entry.party.citationIds[0])?.recordRef);
    expect(cited).toEqual(['rec_f905c9f6-233c-58e9-9cc9-c059ff23905e', 'rec_3a7b6da0-622d-54eb-bb3c-9a3f91138488']);
  });

  it('finds the conflict in the parcel’s free record alone: its owner’s alternative is the other row’s owner', () => {
    const { sheet } = runsheet({ parcelRef: ids.parcel0451, entity: envelope('entityParcel0451') });
    expect(sheet.conflicts.map((conflict) => conflict.names)).toEqual([['BRUNO A CHUMPITAZI MD PC V DIAZ', 'B CHUMPITAZI']]);
  });

  it('sees no conflict in two rows naming one owner', () => {
    const same = envelope('ownership0451');
    const items = (same.data as { items: Array<{ data: Record<string, unknown> }> }).items;
    for (const item of items) item.data.owner = 'B CHUMPITAZI';
    const { sheet } = runsheet({ parcelRef: ids.parcel0451, records: [same] });
    expect(sheet.entries.filter((entry) => entry.event === 'owner_of_record')).toHaveLength(2);
    expect(sheet.conflicts).toEqual([]);
    expect(sheet.gaps.join(' ')).not.toMatch(/Conflict/);
  });

  it('reads the entity answer alone, one entry per record, and says what it lacks', () => {
    const { sheet } = runsheet({ parcelRef: ids.parcel934, entity: envelope('entity934') });
    expect(sheet.entries.map((entry) => entry.event)).toEqual(['permit', 'sale', 'owner_of_record']);
    // The entity answer lists the permit without the owner it names.
    expect(sheet.entries[0]?.party).toMatchObject({ status: 'unavailable', limitation: expect.stringContaining('a search of permit records gives it') });
    const both = runsheet(of934()).sheet;
    expect(both.entries).toHaveLength(3);
  });

  it('says there are no permits and no earlier transfers for 1708 21ST ST NW', () => {
    const { sheet } = runsheet({ parcelRef: ids.parcel1708, entity: envelope('entityParcel1708') });
    expect(sheet.entries.map((entry) => [entry.day, entry.event, entry.party.display, entry.price?.display ?? null])).toEqual([
      ['2013-12-17', 'sale', '—', '$1,361,000'],
      ['2017-02-05', 'owner_of_record', 'JOEL KUIPERS', null],
    ]);
    expect(sheet.gaps).toContain('No building permit in the answers is tied to this parcel.');
    expect(sheet.gaps).toContain('No earlier transfers in the sample: OTR publishes each lot’s last sale only.');
  });

  it('warns that a placeholder SSL’s permits may be about unrelated lots', () => {
    const { sheet } = runsheet({ parcelRef: ids.parcelPlaceholder, entity: envelope('entityPlaceholder') });
    expect(sheet.gaps[0]).toMatch(/^SSL 0000 0000 is a placeholder .* The records below may be about unrelated lots\.$/);
    expect(sheet.gaps).toContain('No recorded sale of this parcel in the answers.');
    expect(sheet.gaps).toContain('No owner of record for this parcel in the answers.');
    expect(sheet.entries.map((entry) => entry.detail.split(' · at ')[1])).toEqual(['2600 INDEPENDENCE AVE SE', '2600 INDEPENDENCE AVE SE', '0 ANACOSTIA DR SE', '8400 RIVER RD NE']);
  });

  it('leaves out records about other parcels and answers about another entity, saying so', () => {
    const { sheet } = runsheet({ parcelRef: ids.parcel1708, entity: envelope('entity934'), records: [envelope('permits934'), envelope('connectedNotFound')] });
    expect(sheet.entries).toEqual([]);
    expect(sheet.problems).toEqual([
      `The entity answer is about ${ids.parcel934}, not ${ids.parcel1708}: not used.`,
      'The record search 2 answer is an error (not_found): No entity parc_00000000-0000-5000-8000-000000000000 in the sample.',
      '1 record in the search answers is about other entities: left out.',
    ]);
  });
});

/** The OTR ownership record of 934 N ST NW: its sale record's row, as an ownership record. */
function ownership934(): Record<string, unknown> {
  const answer = envelope('sales934');
  const item = (answer.data as { items: Array<Record<string, unknown>> }).items[0]!;
  Object.assign(item, { kind: 'ownership', source_id: 'dc_otr_ownership', record_ref: 'rec_ownership_934' });
  return answer;
}

describe('parcelRunsheet against a service with other field names', () => {
  const independent = (): RunsheetInput => ({
    parcelRef: ids.parcel934,
    records: [envelope('permits934'), envelope('sales934'), ownership934()].map(independentSearchEnvelope),
  });
  const rows = (input: RunsheetInput) =>
    runsheet(input).sheet.entries.map((entry) => [entry.day, entry.event, entry.party.display, entry.price?.display ?? null]);
  const expected = [
    ['2012-07-30', 'permit', '934 N STREET COLLABORATIVE LLC', null],
    ['2014-02-26', 'sale', '—', '$0 (non-market or no price)'],
    ['2017-02-05', 'owner_of_record', 'GERRY M COATES', null],
  ];

  it('reads the owner from OWNERNAME and the sale from SALEPRICE and SALEDATE, with the catalog the client read', () => {
    expect(rows({ ...independent(), catalog: independentCatalog })).toEqual(expected);
  });

  it('reads them by the records’ own names when no catalog was read (the kept answers of a report)', () => {
    expect(rows(independent())).toEqual(expected);
    expect(rows({ parcelRef: ids.parcel934, records: [envelope('permits934'), envelope('sales934'), ownership934()] })).toEqual(expected);
  });

  it('says a role it cannot find is not recognised, never that the record leaves it blank', () => {
    const catalog = independentCatalog.map((item) => (item.kind === 'ownership' ? { ...item, fields: ['SSL', 'TITULAR'] } : item));
    const { sheet } = runsheet({ ...independent(), catalog });
    const owner = sheet.entries.find((entry) => entry.event === 'owner_of_record');
    expect(owner?.party).toMatchObject({ status: 'unavailable', limitation: expect.stringMatching(/^Not recognised by Plat: .*owner name/) });
    expect(owner?.party.limitation).not.toMatch(/blank/);
  });

  it('keeps a sale whose date it cannot find, saying so, rather than dropping the paid record', () => {
    const catalog = independentCatalog.map((item) => (item.kind === 'sale' ? { ...item, fields: ['SSL', 'SALEPRICE', 'WHEN'] } : item));
    const { sheet } = runsheet({ parcelRef: ids.parcel934, records: [independentSearchEnvelope(envelope('sales934'))], catalog });
    const sale = sheet.entries.find((entry) => entry.event === 'sale');
    expect(sale?.date).toMatchObject({ status: 'unavailable', limitation: expect.stringMatching(/^Not recognised by Plat: .*sale date/) });
    expect(sale?.price?.raw).toBe('0.00');
  });
});

describe('runsheetCsv', () => {
  it('writes one row per entry and per gap, with the full citation of each value', () => {
    const { sheet, book } = runsheet(of934());
    const csv = runsheetCsv(sheet, book.all());
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('Parcel,Date,Event,Owner named,Price,Detail,Status,Record,Sources');
    expect(lines[1]).toMatch(/^SSL 0368 0909,2012-07-30,Building permit,934 N STREET COLLABORATIVE LLC,,"B1207114 · /);
    expect(lines[1]).toContain('DC Department of Consumer and Regulatory Affairs; Building Permits 2012-2016 (construction, new building); as of 2016-01-22; record rec_6b919072');
    expect(lines[2]).toMatch(/^SSL 0368 0909,2014-02-26,Recorded sale,— \(The sale record names no buyer or seller\.\),\$0 \(non-market or no price\),/);
    expect(lines[3]).toMatch(/^SSL 0368 0909,2017-02-05,Owner of record,GERRY M COATES,,/);
    expect(lines.filter((line) => line.includes(',Gap,'))).toHaveLength(4);
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('marks each owner of record in conflict, and writes the conflict as the first gap', () => {
    const { sheet, book } = runsheet({ parcelRef: ids.parcel0451, entity: envelope('entityParcel0451'), records: [envelope('ownership0451')] });
    const lines = runsheetCsv(sheet, book.all()).split('\r\n');
    expect(lines.filter((line) => line.startsWith('SSL 0451 0828,2017-02-05,Owner of record (conflict),'))).toHaveLength(2);
    expect(lines.find((line) => line.includes(',Gap,'))).toMatch(/^SSL 0451 0828,,Gap,,,"Conflict: 2 records name 2 different owners of record/);
  });
});
