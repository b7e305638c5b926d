// The subject report built from the second service's answers reads each value by its kind: dollars
// published with cents ("658380.00") keep them, years are never grouped, dates are days. The same
// property through Plat's own dialect reads its whole dollars as whole dollars.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSubjectReport } from '../../../shared/report/build-subject-report.ts';
import type { CitedValue } from '../../../shared/cited/value.ts';
import type { ReportDocument } from '../../../shared/report/document.ts';
import { V4SearchResponseSchema } from '../../../shared/service/index.ts';
import { startSecondService, type SecondService } from '../second-service-kit.ts';

let independent: SecondService;
let embedded: SecondService;

beforeAll(async () => {
  [independent, embedded] = await Promise.all([
    startSecondService({ rateLimitPerMinute: 100_000 }),
    startSecondService({ dialect: 'embedded', rateLimitPerMinute: 100_000 }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([independent?.close(), embedded?.close()]);
});

/** 2120 FLORIDA AVE NW's subject report from a service, found by its address field (`PREMISEADD` or `address`). */
async function subjectReport(service: SecondService, addressField: string): Promise<ReportDocument> {
  const query = new URLSearchParams({ kind: 'ownership', jurisdiction: '11001', limit: '1', filter: JSON.stringify({ [addressField]: '2120 FLORIDA AVE NW' }) });
  const found = V4SearchResponseSchema.parse((await service.call(`/api/v4/search?${query.toString()}`)).body);
  if (found.status !== 'ok') throw new Error('no record at 2120 FLORIDA AVE NW');
  const prop = (found.data.items[0]?.q_ids as string[]).find((id) => id.startsWith('prop_'))!;
  const answer = await service.call('/api/v3/record-queries', { json: { mode: 'report', projection: 'report_subject_v1', subject_property_ref: prop } });
  return buildSubjectReport({
    assignment: {
      id: 'asg_1',
      name: '2120 Florida Ave NW',
      capMicroUsd: null,
      details: { subjectRef: prop, subjectLabel: '2120 FLORIDA AVE NW', effectiveDate: '2017-01-01', intendedUse: '', client: '', reference: '', notes: '' },
    },
    subject: answer.body,
    summary: null,
    choices: [],
    queryLog: [],
    spentMicroUsd: 0,
    generatedAt: '2026-11-27T12:00:00.000Z',
    prices: { subjectReportMicroUsd: 300_000, summaryMicroUsd: 100_000 },
  });
}

const valueOf = (doc: ReportDocument, field: string): CitedValue => {
  const found = doc.sections.flatMap((section) => section.values).find((value) => value.field === field);
  if (!found) throw new Error(`no value ${field}`);
  return found;
};

describe('the subject report from the second service, value by value', () => {
  it('keeps the cents the service published and never groups a year', async () => {
    const doc = await subjectReport(independent, 'PREMISEADD');
    expect(valueOf(doc, 'assessment.total_value_dollars')).toMatchObject({ raw: '658380.00', display: '$658,380.00' });
    for (const value of doc.sections.flatMap((section) => section.values)) {
      if (/year/.test(value.field) && value.status !== 'unavailable') expect(value.display, value.field).toMatch(/^\d{4}\b/);
    }
  });

  it('reads Plat’s own whole dollars as whole dollars', async () => {
    const doc = await subjectReport(embedded, 'address');
    expect(valueOf(doc, 'assessment.total_value_dollars').display).toBe('$658,380');
  });
});
