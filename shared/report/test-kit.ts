// The report input the section tests share: an assignment on 1708 21ST ST NW with the embedded
// service's real subject report and summary of it kept (fixtures/dc-1708-21st-st-nw.json).
import type { SubjectReportInput } from './build-subject-report.ts';
import dc1708 from './fixtures/dc-1708-21st-st-nw.json' with { type: 'json' };

/** Effective 2017-01-01, for First Bank, nothing spent; `patch` adds the part a test is about. */
export function dc1708Input(assignment: { name: string; intendedUse: string }, patch: Partial<SubjectReportInput>): SubjectReportInput {
  return {
    assignment: {
      id: 'asg_1',
      name: assignment.name,
      capMicroUsd: null,
      details: { subjectRef: dc1708.subjectRef, subjectLabel: '', effectiveDate: '2017-01-01', intendedUse: assignment.intendedUse, client: 'First Bank', reference: '', notes: '' },
    },
    subject: dc1708.subject,
    summary: dc1708.summary,
    choices: [],
    queryLog: [],
    spentMicroUsd: 0,
    generatedAt: '2026-11-24T12:00:00.000Z',
    prices: { subjectReportMicroUsd: 250_000, summaryMicroUsd: 100_000 },
    ...patch,
  };
}

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A v3 answer of the embedded service as the independent dialect writes it (docs: the second
 * service's choice 4): every `source_refs` entry is `<source_id>@<release_id>` and `data.sources[]`
 * entries are `{source_id, release_id, sha256, official_url, publisher, dataset, as_of}`, with no
 * `record_refs` index. `transfer` as it writes a market sale: `sale_type` MARKET, `acceptance_code`
 * 01, no basis. Every other part is left as the embedded service wrote it.
 */
export function asIndependentDialect(envelope: unknown): JsonObject {
  const copy = structuredClone(envelope) as JsonObject;
  const data = copy.data as JsonObject;
  const sources = (data.sources as JsonObject[]) ?? [];
  const sourceOfRecord = new Map<string, string>();
  for (const source of sources) for (const ref of (source.record_refs as string[]) ?? []) sourceOfRecord.set(ref, `${String(source.source_id)}@${String(source.release_id)}`);
  data.sources = sources.map(({ source_id, release_id, sha256, official_url, publisher, dataset, as_of }) => ({ source_id, release_id, sha256, official_url, publisher, dataset, as_of }));
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'source_refs' && Array.isArray(value)) node[key] = [...new Set(value.map((ref: string) => sourceOfRecord.get(ref) ?? ref))];
      else visit(value);
    }
  };
  visit(data);
  for (const item of (data.items as JsonObject[]) ?? []) {
    const transfer = (item.sections as JsonObject | undefined)?.transfer;
    if (isObject(transfer) && transfer.acceptance_code === 'market') {
      Object.assign(transfer, { sale_type: 'MARKET', acceptance_code: '01' });
      delete transfer.acceptance_basis;
    }
  }
  return copy;
}
