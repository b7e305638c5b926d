// Writes shared/report/fixtures/*.json: real answers of the embedded service (the v3
// report_subject_v1 envelope and the v4 summary envelope) for a few subjects that exercise the report
// rules, so the document builder is tested on the shapes the service really sends.
// Run after a change to what the service answers: `node scripts/report-fixtures.ts`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { localOperations } from '../electron/local-service/operations/index.ts';
import { openSampleStore } from '../electron/local-service/sample-store.ts';
import type { SampleStore } from '../electron/local-service/sample-store.ts';
import { startTestService, stopTestService } from '../electron/local-service/test-harness.ts';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../shared/report/fixtures');

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
  { file: 'dc-1425-swann-st-nw', address: '1425 SWANN ST NW', why: 'synthetic year built 1890 beside a 2013 permit for new construction on a vacant lot' },
  { file: 'dc-1711-massachusetts-ave-nw-unit', address: '1711 MASSACHUSETTS AVE NW', why: 'a condominium unit in a building whose address OTR publishes only per unit' },
  { file: 'va-304-adams-av', address: '304 ADAMS AV', why: 'Alexandria parcel: most sections unavailable' },
];

const store = openSampleStore();
const svc = await startTestService({ operations: localOperations, store });
try {
  let n = 0;
  for (const subject of subjects) {
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
} finally {
  await stopTestService(svc);
  store.close();
}
