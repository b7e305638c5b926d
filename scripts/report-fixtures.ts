// Writes shared/report/fixtures/*.json: real answers of the embedded service (the v3
// report_subject_v1 envelope and the v4 summary envelope) for a few subjects that exercise the report
// rules, so the document builder is tested on the shapes the service really sends; and
// shared/comparables/fixtures/dc-1708-comps-2016-with-undated.json (and its "-page-2"): a
// report_comparables_v1 search that asks for the undated (DC CAMA) sales inside a date window, page
// by page as Plat buys it.
// Run after a change to what the service answers: `node scripts/report-fixtures.ts`, or name the
// fixtures to write only those: `node scripts/report-fixtures.ts dc-1708-comps-2016-with-undated`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { localOperations } from '../electron/local-service/operations/index.ts';
import { openSampleStore } from '../electron/local-service/sample-store.ts';
import type { SampleStore } from '../electron/local-service/sample-store.ts';
import { startTestService, stopTestService } from '../electron/local-service/test-harness.ts';
import { comps2016Body } from '../shared/comparables/test-kit.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'shared/report/fixtures');
const comparablesOut = path.join(root, 'shared/comparables/fixtures');
/** The fixtures named on the command line; none named: all of them. */
const wanted = new Set(process.argv.slice(2));
const writes = (file: string) => wanted.size === 0 || wanted.has(file);

/** The property entity at an address, as the find box would resolve it. */
function propertyAt(store: SampleStore, address: string): string {
  const candidate = store.resolveAddress(address, { limit: 20 }).candidates.find((c) => c.prefix === 'prop');
  if (candidate) return candidate.entity_id;
  // A building's address holds only units: take the first property it serves.
  const premise = store.resolveAddress(address, { limit: 1 }).candidates[0];
  const served = premise ? store.relationships(premise.entity_id, { direction: 'in', predicates: ['served_by'] }) : [];
  const property = served.find((edge) => edge.subject_ref.startsWith('prop_'));
  if (!property) throw new Error(`no property at ${address}`);
  return property.subject_ref;
}

const subjects = [
  { file: 'dc-1708-21st-st-nw', address: '1708 21ST ST NW', why: 'DC record lot: OTR values, a synthetic building profile, a market sale' },
  { file: 'dc-1717-4th-st-nw', address: '1717 4TH ST NW', why: 'synthetic year built 1911 and 2 stories beside permit B1104076 (2012), new construction of a three-story row house' },
  { file: 'dc-1425-swann-st-nw', address: '1425 SWANN ST NW', why: 'synthetic year built 1890 beside a 2013 permit for new construction on a vacant lot' },
  { file: 'dc-1711-massachusetts-ave-nw-unit', address: '1711 MASSACHUSETTS AVE NW', why: 'a condominium unit in a building whose address OTR publishes only per unit' },
  { file: 'va-304-adams-av', address: '304 ADAMS AV', why: 'Alexandria parcel: most sections unavailable' },
];

/** Comparable-sales answers: the same search as dc-1708-comps-2016.json, plus include_undated. */
const comparableSearches = [
  {
    file: 'dc-1708-comps-2016-with-undated',
    address: '1708 21ST ST NW',
    about: 'report_comparables_v1 around 1708 21ST ST NW: 0.5 mi, sold 2016, use code 24, undated (DC CAMA) sales included, from the embedded service',
    body: (ref: string) => comps2016Body(ref, { toDate: '2016-12-31', includeUndated: true, limit: 100 }),
  },
  {
    file: 'dc-1717-4th-comps-2016',
    address: '1717 4TH ST NW',
    about: 'report_comparables_v1 around 1717 4TH ST NW: 0.5 mi, sold 2016, use code 24, from the embedded service',
    body: (ref: string) => comps2016Body(ref, { toDate: '2016-12-31', includeUndated: false, limit: 20 }),
  },
];

const known = new Set([...subjects.map((s) => s.file), ...comparableSearches.map((s) => s.file)]);
const unknown = [...wanted].filter((file) => !known.has(file));
if (unknown.length > 0) throw new Error(`no fixture named ${unknown.join(', ')}; the fixtures are ${[...known].join(', ')}`);

const store = openSampleStore();
const svc = await startTestService({ operations: localOperations, store });
try {
  let n = 0;
  for (const subject of subjects) {
    if (!writes(subject.file)) continue;
    const ref = propertyAt(store, subject.address);
    const report = await svc.call('/api/v3/record-queries', {
      json: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: ref },
      idempotencyKey: `fixture-${++n}`,
    });
    const summary = await svc.call(`/api/v4/entities/${ref}/summary`, { idempotencyKey: `fixture-${++n}` });
    if (report.status !== 200 || summary.status !== 200) throw new Error(`${subject.address}: ${report.status} ${summary.status}`);
    const fixture = { about: `${subject.address}: ${subject.why}`, subjectRef: ref, subject: report.body, summary: summary.body };
    writeFileSync(path.join(out, `${subject.file}.json`), `${JSON.stringify(fixture, null, 1)}\n`);
    console.log(`${subject.file}.json: ${ref}`);
  }
  for (const search of comparableSearches) {
    if (!writes(search.file)) continue;
    const first = search.body(propertyAt(store, search.address));
    // Every page of the search, one file each (page 1 as named, then "-page-2"…), as Plat buys them: by the cursor.
    let cursor: string | null = null;
    for (let page = 1; page === 1 || cursor !== null; page++) {
      const request = cursor === null ? first : { ...first, cursor };
      const answer = await svc.call('/api/v3/record-queries', { json: request, idempotencyKey: `fixture-${++n}` });
      if (answer.status !== 200) throw new Error(`${search.file} page ${page}: ${answer.status} ${answer.text}`);
      const body = answer.body as { data?: { total?: unknown; items?: unknown[] }; meta?: { next_cursor?: unknown } };
      const about = `${search.about}; page ${page}: ${body.data?.items?.length ?? 0} of ${String(body.data?.total)} candidates`;
      const file = page === 1 ? search.file : `${search.file}-page-${page}`;
      writeFileSync(path.join(comparablesOut, `${file}.json`), `${JSON.stringify({ about, request, envelope: answer.body }, null, 1)}\n`);
      console.log(`${file}.json: ${about}`);
      cursor = typeof body.meta?.next_cursor === 'string' ? body.meta.next_cursor : null;
    }
  }
} finally {
  await stopTestService(svc);
  store.close();
}
