import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { buildSubjectReport, type SubjectReportInput } from './build-subject-report.ts';
import { citationRows, citationsCsv } from './citation-export.ts';
import dcSwann from './fixtures/dc-1425-swann-st-nw.json' with { type: 'json' };

const swannInput = (subject: unknown = dcSwann.subject): SubjectReportInput => ({
  assignment: {
    id: 'asg_1',
    name: 'Swann St',
    capMicroUsd: null,
    details: { subjectRef: dcSwann.subjectRef, subjectLabel: '1425 Swann St NW', effectiveDate: '2024-05-01', intendedUse: '', client: '', reference: '', notes: '' },
  },
  subject,
  summary: dcSwann.summary,
  choices: [],
  queryLog: [],
  spentMicroUsd: 0,
  generatedAt: '2024-05-01T12:00:00.000Z',
  prices: { subjectReportMicroUsd: 250_000, summaryMicroUsd: 100_000 },
});
const doc = buildSubjectReport(swannInput());

describe('citation rows', () => {
  const rows = citationRows(doc);

  it('lists a value’s markers in endnote order, as the pages print them (Verify looks for them so)', () => {
    const [first, second] = doc.citations;
    const section = doc.sections[0]!;
    const reversed = { ...section.values[0]!, field: 'test.reversed', citationIds: [second!.id, first!.id] };
    const row = citationRows({ ...doc, sections: [{ ...section, values: [reversed], tables: [] }] }).find((r) => r.field === 'test.reversed')!;
    expect(row.markers).toEqual([first!.number, second!.number].sort((a, b) => a - b));
    expect(row.citations.map((citation) => citation.number)).toEqual(row.markers);
  });

  it('has one row per printed value and per printed alternative, with its field key and full citations', () => {
    const values = doc.sections.flatMap((s) => [...s.values, ...s.tables.flatMap((t) => t.rows.flatMap((r) => Object.values(r)))]);
    const alternatives = values.reduce((n, v) => n + v.alternatives.length, 0);
    expect(rows).toHaveLength(values.length + alternatives);
    const owner = rows.find((r) => r.field === 'ownership.owner_name')!;
    expect(owner).toMatchObject({ role: 'value', printed: 'JENNIFER E TROCK', status: 'reported', section: 'Ownership' });
    expect(owner.citations[0]).toMatchObject({ publisher: 'DC Office of Tax and Revenue', releaseId: 20170205 });
    expect(owner.markers).toEqual(owner.citations.map((c) => c.number));
    const year = rows.filter((r) => r.field === 'building.year_built');
    expect(year.map((r) => [r.role, r.printed, r.status])).toEqual([
      ['value', '2013 or later', 'derived'],
      ['alternative', '1890', 'synthetic'],
    ]);
    expect(year[0]?.choice).toMatch(/^Plat: /);
    expect(rows.find((r) => r.field === 'permit.B1210493.record_date')?.printed).toBe('2013-03-20');
    for (const row of rows) if (row.status !== 'unavailable') expect(row.citations.length, row.field).toBeGreaterThan(0);
  });

  it('writes RFC 4180 CSV with CRLF line ends that reads back to the same rows', () => {
    const csv = citationsCsv(rows);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csv.replace(/\r\n/g, '')).not.toMatch(/(?<!")\n/);
    const parsed = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(parsed).toHaveLength(rows.length);
    const owner = parsed.find((r) => r.field === 'ownership.owner_name')!;
    expect(owner.publisher).toBe('DC Office of Tax and Revenue');
    const ownerMarker = rows.find((r) => r.field === 'ownership.owner_name')!.markers[0];
    expect(owner.citation).toMatch(new RegExp(`^\\[${ownerMarker}\\] DC Office of Tax and Revenue; Real Property Tax Database`));
    // Quotes, commas and line breaks survive.
    const tricky = citationsCsv([{ ...rows[0]!, printed: 'A "quoted", multi\r\nline value' }]);
    expect((parse(tricky, { columns: true }) as Array<Record<string, string>>)[0]?.printed).toBe('A "quoted", multi\r\nline value');
    const synthetic = parsed.find((r) => r.field === 'building.year_built' && r.role === 'alternative')!;
    expect(synthetic.publisher).toBe('Plat synthetic sample (not a public record)');
    expect(synthetic.synthetic).toBe('true');
  });
});

describe('citation rows print each value by its kind', () => {
  it('writes a year never grouped and a published price with its cents, in citations.json and the CSV', () => {
    const subject = structuredClone(dcSwann.subject) as { data: { items: Array<{ sections: Record<string, Record<string, unknown>> }> } };
    const sections = subject.data.items[0]!.sections;
    sections.building!.effective_year_built = 1985;
    sections.transfer!.price_dollars = { value: '18402.50', status: 'reported', source_refs: sections.transfer!.source_refs };
    const rows = citationRows(buildSubjectReport(swannInput(subject)));
    expect(rows.find((r) => r.field === 'building.effective_year_built')?.printed).toBe('1985');
    expect(rows.find((r) => r.field === 'transfer.price_dollars' && r.role === 'value')?.printed).toBe('$18,402.50');
    const csv = parse(citationsCsv(rows), { columns: true }) as Array<Record<string, string>>;
    expect(csv.find((r) => r.field === 'building.effective_year_built')?.printed).toBe('1985');
  });
});

