// The report's title research from real answers of the embedded service (shared/graph/fixtures), kept
// as an assignment keeps them: each with its request parts normalised by the contract's schemas.
import { describe, expect, it } from 'vitest';
import { independentSearchEnvelope } from '../service/record-fields-fixtures.ts';
import { operationSchemas, type ServiceOperationName } from '../service/index.ts';
import { envelope, fixtures, ids } from '../graph/test-kit.ts';
import type { GraphDecision } from '../graph/decisions.ts';
import { buildSubjectReport, citationRows, type SubjectReportInput } from './build-subject-report.ts';
import { CitationBook } from '../cited/citation-book.ts';
import { ReportDocumentSchema, TitleResearchSectionSchema } from './document.ts';
import { CitedValueSchema, type CitedValue } from '../cited/value.ts';
import { dc1708Input } from './test-kit.ts';
import { titleResearchCitationOrder, titleResearchSection, titleResearchValues, type KeptServiceAnswer, type TitleResearchSubject } from './title-research-section.ts';

type FixtureName = keyof typeof fixtures;
type Parts = { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };

/** A fixture's answer as an assignment keeps it: the request parts as the gateway normalises them. */
function kept(operation: ServiceOperationName, parts: Parts, name: FixtureName): KeptServiceAnswer {
  const schemas = operationSchemas[operation] as { path?: { parse: (v: unknown) => unknown }; query?: { parse: (v: unknown) => unknown }; body?: { parse: (v: unknown) => unknown } };
  const request: Record<string, unknown> = {};
  if (schemas.path) request.path = schemas.path.parse(parts.path ?? {});
  if (schemas.query) request.query = schemas.query.parse(parts.query ?? {});
  if (schemas.body) request.body = schemas.body.parse(parts.body);
  return { operation, request, envelope: envelope(name) };
}

const request = (name: FixtureName) => fixtures[name].request as { query?: Record<string, unknown>; body?: unknown };
const traversal = (entityRef: string, name: FixtureName) => kept('v2.traverseRelationships', { path: { entity_ref: entityRef }, query: request(name).query ?? {} }, name);
const connected = (qId: string, name: FixtureName) => kept('v4.connected', { path: { q_id: qId }, query: request(name).query ?? {} }, name);
const entity = (entityRef: string, name: FixtureName) => kept('v2.getEntity', { path: { entity_ref: entityRef } }, name);
const ownerSearch = (name: FixtureName) => kept('v2.searchProperties', { body: request(name).body }, name);
const recordSearch = (name: FixtureName) => kept('v4.search', { query: request(name).query ?? {} }, name);

const subject1708: TitleResearchSubject = { subjectRef: ids.property1708, owner: null, ssl: null };

/** What the Graph view keeps for 1708 21ST ST NW: its traversal, the parcel's connected entities, the owner's search, the parcel's record. */
const answers1708 = (): KeptServiceAnswer[] => [
  traversal(ids.property1708, 'relationships1708Depth2'),
  connected(ids.parcel1708, 'connected1708'),
  ownerSearch('searchKuipers'),
  entity(ids.parcel1708, 'entityParcel1708'),
];

function section(answers: KeptServiceAnswer[], decisions: GraphDecision[] = [], subject: TitleResearchSubject = subject1708) {
  const book = new CitationBook();
  const built = titleResearchSection({ answers, decisions }, subject, book.cite);
  return { built, book };
}

const AT = '2026-11-23T21:00:00Z';
const poozeshLead = `owned_by:rec_9fc93e21-30ec-5501-8571-88f0bf084983→owner:ABDOLLAH POOZESH`;

describe('titleResearchSection', () => {
  it('draws the subject’s graph from the answers about it, and leaves out answers about other entities', () => {
    const unrelated = [traversal(ids.propertyPoozesh, 'relationshipsPoozesh'), ownerSearch('searchDc1'), recordSearch('permits934')];
    const { built } = section([...unrelated, ...answers1708()]);
    expect(TitleResearchSectionSchema.parse(built)).toEqual(built);
    const graph = built!.graph!;
    expect(graph.nodes.map((node) => `${node.kindLabel}: ${node.label}`)).toEqual([
      'Property: 1708 21ST ST NW',
      'Parcel: SSL 0065 0007',
      'Tax account: Account 0065 0007',
      'Address: 1708 21ST ST NW',
      'Owner: JOEL KUIPERS',
    ]);
    expect(graph.spec.nodes).toHaveLength(5);
    expect(graph.spec.altText).toMatch(/^Graph of 1708 21ST ST NW: 5 entities .* 1708 21ST ST NW owned by JOEL KUIPERS\.$/);
    expect(graph.links.map((link) => `${link.from} — ${link.label} → ${link.to} (${link.ruleLabel}, ${link.strength})`)).toContain(
      '1708 21ST ST NW — owned by → JOEL KUIPERS (Owner of record, fact)',
    );
    // Each link cites its supporting records; the owner's name cites the ownership source.
    for (const link of graph.links) expect(link.citationIds.length).toBeGreaterThan(0);
    expect(graph.nodes.find((node) => node.kind === 'owner')?.citationIds).toHaveLength(1);
    expect(built!.missing).toEqual([]);
    expect(built!.problems).toEqual([]);
  });

  it('prints a cut link as cut, with its note, and what the subject then reaches only through it', () => {
    const decisions: GraphDecision[] = [
      { edgeKey: poozeshLead, decision: 'cut', note: 'The deed names a different Abdollah Poozesh.', at: AT },
      { edgeKey: 'same_owner:acct_x→acct_y', decision: 'confirmed', note: 'Same mailing address.', at: '2026-11-22T10:00:00Z' },
    ];
    const { built } = section([traversal(ids.propertyPoozesh, 'relationshipsPoozesh'), ownerSearch('searchPoozesh')], decisions, { subjectRef: ids.propertyPoozesh, owner: null, ssl: null });
    const graph = built!.graph!;
    const lead = graph.links.find((link) => link.key === poozeshLead);
    expect(lead).toMatchObject({
      from: '1620 Q ST NW',
      label: 'owned by',
      to: 'ABDOLLAH POOZESH',
      // 1620 Q ST NW's own record names him: a fact, which the researcher's cut overrides without changing.
      rule: 'owner_of_record',
      strength: 'fact',
      decision: { decision: 'cut', note: 'The deed names a different Abdollah Poozesh.', at: AT },
    });
    expect(graph.spec.edges.find((edge) => edge.id === poozeshLead)?.decision).toBe('cut');
    expect(graph.nodes.filter((node) => node.cutOff).map((node) => node.label).sort()).toEqual(['1620 Q ST NW', 'SSL 0180 0031']);
    expect(graph.spec.altText).toContain('Cut by the researcher, drawn crossed out: 1620 Q ST NW owned by ABDOLLAH POOZESH.');
    // Every decision is listed in the order made, the one on a link this graph does not hold too.
    expect(built!.decisions.map((decision) => [decision.decision, decision.onGraph, decision.note])).toEqual([
      ['confirmed', false, 'Same mailing address.'],
      ['cut', true, 'The deed names a different Abdollah Poozesh.'],
    ]);
    expect(built!.decisions[0]?.description).toBe('acct_x — same owner name as → acct_y');
  });

  it('lists the owner’s portfolio with honest counts: whole when every page is held, partial in words when not', () => {
    const poozesh = section([traversal(ids.propertyPoozesh, 'relationshipsPoozesh'), ownerSearch('searchPoozesh')], [], { subjectRef: ids.propertyPoozesh, owner: null, ssl: null }).built!.portfolio!;
    expect(poozesh).toMatchObject({ ownerName: 'ABDOLLAH POOZESH', searched: 'ABDOLLAH POOZESH', countText: '2 holdings', complete: true });
    expect(poozesh.holdings.map((row) => [row.address.display, row.subject])).toEqual([
      ['1709 17TH ST NW', true],
      ['1620 Q ST NW', false],
    ]);
    // A holding whose link to the owner the researcher cut is listed as the records publish it, marked cut with the note.
    const cut = section([traversal(ids.propertyPoozesh, 'relationshipsPoozesh'), ownerSearch('searchPoozesh')], [{ edgeKey: poozeshLead, decision: 'cut', note: 'Another Abdollah Poozesh.', at: AT }], {
      subjectRef: ids.propertyPoozesh,
      owner: null,
      ssl: null,
    }).built!;
    expect(cut.portfolio?.holdings.map((row) => row.cut)).toEqual([null, { note: 'Another Abdollah Poozesh.', at: AT }]);
    expect(cut.problems).toEqual([]);
    const sum = poozesh.holdings.reduce((total, row) => total + (row.assessed.raw as number), 0);
    expect(poozesh.totalAssessed).toMatchObject({ status: 'derived', raw: sum, derivedFrom: 'Sum of the assessed values of all 2 holdings.', limitation: null });

    // A property of the District, with only two of the search's pages held: the owner comes from the graph the search makes.
    const dcProperty = 'prop_9c3b9bdc-bef1-5b18-adc3-7131f1a9c9a4';
    const dc = section([ownerSearch('searchDc1'), ownerSearch('searchDc2')], [], { subjectRef: dcProperty, owner: null, ssl: null }).built!;
    expect(dc.portfolio).toMatchObject({ ownerName: 'DISTRICT OF COLUMBIA', complete: false, countText: '20 holdings in the loaded pages (20 of 252 loaded)' });
    expect(dc.portfolio?.totalAssessed.limitation).toBe('Not the owner’s whole assessed value: some holdings are missing from the sum.');
    expect(dc.portfolio?.holdings.filter((row) => row.subject)).toHaveLength(1);
  });

  it('prints a parcel on two rows as one holding, the subject’s whichever row it is (BRUNO A CHUMPITAZI MD PC: 3 holdings, $5,235,130)', () => {
    // The subject is the row of 0451 0022 that carries no assessment (its other row does).
    const owner: CitedValue = { field: 'ownership.owner_name', label: 'Owner of record', raw: 'BRUNO A CHUMPITAZI MD PC', display: 'BRUNO A CHUMPITAZI MD PC', status: 'reported', citationIds: ['c9'], derivedFrom: null, limitation: null, alternatives: [], choice: null };
    const subjectRef = (fixtures.searchBruno.envelope.data.items[0] as { property_ref: string }).property_ref;
    const portfolio = section([ownerSearch('searchBruno')], [], { subjectRef, owner, ssl: null }).built!.portfolio!;
    expect(portfolio).toMatchObject({ ownerName: 'BRUNO A CHUMPITAZI MD PC', countText: '3 holdings', complete: true });
    expect(portfolio.holdings.map((row) => [row.identifier.display, row.assessed.display, row.subject])).toEqual([
      ['0451 0022', '$1,656,250', true],
      ['0451 0827', '$2,685,700', false],
      ['0451 0829', '$893,180', false],
    ]);
    expect(portfolio.totalAssessed).toMatchObject({ raw: 5235130, display: '$5,235,130' });
  });

  it('says so when the researcher cut the subject’s own link to its owner of record', () => {
    const ownerLink = 'owned_by:rec_23cf6780-2221-547e-b0e2-eaf741fda9ee→owner:JOEL KUIPERS';
    const { built } = section(answers1708(), [{ edgeKey: ownerLink, decision: 'cut', note: 'Sold before the roll was printed.', at: AT }]);
    expect(built!.problems).toEqual(['The researcher cut the link between the subject and its owner of record: the portfolio below is of the name the ownership record publishes.']);
    expect(built!.graph!.nodes.find((node) => node.kind === 'owner')?.cutOff).toBe(true);
  });

  it('keeps other owners a search by part of a name found out of the subject’s graph and portfolio, naming them apart', () => {
    const subjectRef = (fixtures.searchPugh.envelope.data.items[0] as { property_ref: string }).property_ref;
    const { built } = section([ownerSearch('searchPugh')], [], { subjectRef, owner: null, ssl: null });
    expect(built!.graph!.nodes.map((node) => node.label)).toEqual(['1815 18TH ST NW Unit: 201', '1815 18TH ST NW UNIT 201', 'DANIEL PUGH']);
    expect(built!.graph!.notes).toEqual(['15 entities in the answers are not linked to the subject (other owners an owner search found, or what they hold): left out of this graph.']);
    expect(built!.portfolio).toMatchObject({ ownerName: 'DANIEL PUGH', searched: 'PUGH', countText: '1 holding' });
    expect(built!.portfolio!.otherOwners.map((owner) => [owner.name, owner.countText])).toEqual([
      ['NORMAN A PUGH-NEWBY', '4 holdings'],
      ['NORMAN PUGH NEWBY', '1 holding'],
      ['RICHARD A PUGH', '1 holding'],
    ]);
  });

  it('finds the portfolio by the owner of record the subject’s sections print when no graph names the owner', () => {
    const owner: CitedValue = { field: 'ownership.owner_name', label: 'Owner of record', raw: 'Joel Kuipers', display: 'Joel Kuipers', status: 'reported', citationIds: ['c9'], derivedFrom: null, limitation: null, alternatives: [], choice: null };
    const { built } = section([ownerSearch('searchKuipers')], [], { subjectRef: 'prop_00000000-0000-5000-8000-000000000001', owner, ssl: null });
    expect(built?.portfolio?.ownerName).toBe('JOEL KUIPERS');
    expect(built?.portfolio?.countText).toBe('1 holding');
    expect(built?.missing).toContain('No graph of the subject is in this assignment: open the Graph view from the subject (free) to draw it.');
  });

  it('lists the parcel’s runsheet in date order, each value cited, and its gaps cited to the records they speak of', () => {
    // No graph: the parcel is the one the subject’s records are filed under.
    const property934 = 'prop_a88a880f-f6c5-5c8f-ab7c-7543b4ce398f';
    const { built, book } = section([recordSearch('sales934'), recordSearch('permits934'), entity(ids.parcel934, 'entity934')], [], { subjectRef: property934, owner: null, ssl: null });
    const runsheet = built!.runsheet!;
    expect(runsheet.parcel).toBe('SSL 0368 0909');
    expect(runsheet.entries.map((entry) => [entry.date.display, entry.eventLabel, entry.party.display, entry.price?.display ?? null])).toEqual([
      ['2012-07-30', 'Building permit', '934 N STREET COLLABORATIVE LLC', null],
      ['2014-02-26', 'Recorded sale', '—', '$0 (non-market or no price)'],
      ['2017-02-05', 'Owner of record', 'GERRY M COATES', null],
    ]);
    for (const entry of runsheet.entries) {
      for (const value of [entry.date, entry.party, ...(entry.price ? [entry.price] : [])]) {
        expect(CitedValueSchema.parse(value)).toEqual(value);
        expect(value.field.startsWith('titleResearch.runsheet.')).toBe(true);
        if (value.status !== 'unavailable') expect(value.citationIds.length).toBeGreaterThan(0);
      }
    }
    const between = runsheet.gaps.find((gap) => gap.text.startsWith('The permit of 2012-07-30'));
    expect(between?.citationIds.map((id) => book.all().find((citation) => citation.id === id)?.sourceId).sort()).toEqual(['dc_dcra_new_building_permits', 'dc_otr_ownership', 'dc_otr_sale']);
    expect(runsheet.gaps.find((gap) => gap.text.startsWith('No earlier transfers'))?.citationIds).toHaveLength(1);
  });

  it('prints 0451 0828’s two owners of record as a conflict, named in “What the records do not show” and cited to both rows', () => {
    const property0451 = 'prop_01356678-fddf-573b-b25f-a7d552709b85';
    const { built, book } = section([recordSearch('ownership0451'), entity(ids.parcel0451, 'entityParcel0451')], [], { subjectRef: property0451, owner: null, ssl: null });
    const runsheet = built!.runsheet!;
    expect(runsheet.entries.filter((entry) => entry.conflict).map((entry) => entry.party.display)).toEqual(['BRUNO A CHUMPITAZI MD PC V DIAZ', 'B CHUMPITAZI']);
    const conflict = runsheet.gaps[0]!;
    expect(conflict.text).toMatch(/^Conflict: 2 records name 2 different owners of record for this parcel as of the roll released 2017-02-05: BRUNO A CHUMPITAZI MD PC V DIAZ and B CHUMPITAZI\./);
    expect(conflict.citationIds.map((id) => book.all().find((citation) => citation.id === id)?.recordRef).sort()).toEqual(['rec_3a7b6da0-622d-54eb-bb3c-9a3f91138488', 'rec_f905c9f6-233c-58e9-9cc9-c059ff23905e']);
    expect(runsheet.gaps[1]?.text).toMatch(/^The records hold no trace of deeds, liens, mortgages or grantors and grantees for SSL 0451 0828/);
  });

  it('reads the kept record searches of a service with other field names (OWNERNAME, SALEPRICE, SALEDATE, ISSUEDATE)', () => {
    const property934 = 'prop_a88a880f-f6c5-5c8f-ab7c-7543b4ce398f';
    const independent = (answer: KeptServiceAnswer): KeptServiceAnswer => ({ ...answer, envelope: independentSearchEnvelope(answer.envelope as Record<string, unknown>) });
    const { built } = section([independent(recordSearch('sales934')), independent(recordSearch('permits934'))], [], { subjectRef: property934, owner: null, ssl: null });
    expect(built!.runsheet!.entries.map((entry) => [entry.date.display, entry.eventLabel, entry.party.display, entry.price?.display ?? null])).toEqual([
      ['2012-07-30', 'Building permit', '934 N STREET COLLABORATIVE LLC', null],
      ['2014-02-26', 'Recorded sale', '—', '$0 (non-market or no price)'],
    ]);
  });

  it('finds the parcel by the subject’s SSL when only the parcel’s record is kept', () => {
    const { built } = section([entity(ids.parcel1708, 'entityParcel1708')], [], { subjectRef: 'prop_00000000-0000-5000-8000-000000000001', owner: null, ssl: '0065    0007' });
    expect(built?.runsheet?.entries.map((entry) => entry.date.display)).toEqual(['2013-12-17', '2017-02-05']);
  });

  it('says what is missing and what it could not read, keeping the rest', () => {
    const notFound = kept('v4.connected', { path: { q_id: ids.parcel1708 }, query: { depth: '2' } }, 'connectedNotFound');
    const { built } = section([notFound, traversal(ids.property1708, 'relationships1708Depth1')]);
    expect(built!.problems).toEqual(['The connected answer is an error (not_found): No entity parc_00000000-0000-5000-8000-000000000000 in the sample.']);
    expect(built!.graph?.nodes.length).toBeGreaterThan(1);
    expect(built!.missing).toEqual([
      'The answers name no owner of record for the subject, so no owner portfolio is listed.',
      'No record of SSL 0065 0007 is in this assignment: open the parcel (free) to list its runsheet.',
    ]);
  });

  it('is null for an assignment without title research about the subject', () => {
    expect(section([]).built).toBeNull();
    expect(section([traversal(ids.propertyPoozesh, 'relationshipsPoozesh'), ownerSearch('searchDc1')]).built).toBeNull();
    // A property search that is not an owner search is not title research.
    const search = kept('v2.searchProperties', { body: { area_uid: 'area_us_dc', filters: [{ field: 'address', op: 'contains', value: '21ST' }] } }, 'searchKuipers');
    expect(section([search]).built).toBeNull();
    // A decision is never dropped, even when no answer about its link is held.
    expect(section([], [{ edgeKey: poozeshLead, decision: 'cut', note: 'Not him.', at: AT }]).built?.decisions).toHaveLength(1);
  });
});

describe('the title research in the report document', () => {
  function report(titleResearch: SubjectReportInput['titleResearch']) {
    return buildSubjectReport(dc1708Input({ name: '1708 21st St title', intendedUse: 'Title review' }, { generatedAt: '2026-11-23T12:00:00.000Z', titleResearch }));
  }

  it('joins the document after the subject’s sections, its citations numbered in the one book as a reader meets them', () => {
    const plain = report(null);
    const doc = report({ answers: answers1708(), decisions: [{ edgeKey: `owned_by:rec_23cf6780-2221-547e-b0e2-eaf741fda9ee→owner:JOEL KUIPERS`, decision: 'confirmed', note: 'Matches the 2017 tax bill.', at: AT }] });
    expect(plain.titleResearch).toBeNull();
    expect(() => ReportDocumentSchema.parse(doc)).not.toThrow();
    const section = doc.titleResearch!;
    expect(section.graph?.links.find((link) => link.to === 'JOEL KUIPERS')?.decision?.note).toBe('Matches the 2017 tax bill.');
    // Every citation it prints is an endnote; those it is the first to print come after the subject's, in its order.
    const numbers = new Map(doc.citations.map((citation) => [citation.id, citation.number]));
    const order = titleResearchCitationOrder(section);
    for (const id of order) expect(numbers.has(id), id).toBe(true);
    const firstHere = order.filter((id) => (numbers.get(id) ?? 0) > plain.citations.length);
    expect(firstHere.length).toBeGreaterThan(0);
    expect(firstHere.map((id) => numbers.get(id))).toEqual(firstHere.map((_, index) => plain.citations.length + index + 1));
    expect(doc.citations.slice(0, plain.citations.length).map((citation) => citation.id)).toEqual(plain.citations.map((citation) => citation.id));
  });

  it('puts its values in the citation rows, after the subject’s, each with its endnotes', () => {
    const doc = report({ answers: answers1708(), decisions: [] });
    const rows = citationRows(doc);
    const mine = rows.filter((row) => row.section === 'Title research');
    const values = titleResearchValues(doc.titleResearch!);
    expect(mine.map((row) => row.field)).toEqual(values.map((value) => value.field));
    expect(rows.slice(-mine.length)).toEqual(mine);
    expect(mine.find((row) => row.field.endsWith('.assessed'))).toMatchObject({ printed: '$1,302,760', status: 'reported' });
    for (const row of mine) if (row.status !== 'unavailable') expect(row.markers.length).toBeGreaterThan(0);
  });
});
