// Reports: the subject report built from the assignment's kept answers (free, never calls the
// service), printed to PDF with its evidence attached, and "Verify a report".
import type { ReportDocument } from '../../../shared/report/document.ts';
import { buildSubjectReport } from '../../../shared/report/build-subject-report.ts';
import type { IpcHandlers } from '../ipc-dispatch.ts';
import { PlatFailure } from '../failure.ts';
import type { ReportPdfService } from '../reports/report-pdf-service.ts';
import { subjectReportParts, subjectSummaryParts, type AssignmentService } from '../assignments/assignments.ts';
import type { RequestParts, ServiceGateway } from '../service-gateway.ts';
import type { ServiceOperationName } from '../../../shared/service/index.ts';

export interface ReportSourcesDeps {
  assignments: AssignmentService;
  gateway: Pick<ServiceGateway, 'preview'>;
  /** The service calls go to now (its answers are the ones the cache holds); null when none is usable. */
  connectionId: () => string | null;
  now?: () => Date;
  /** The fingerprint of the certificate exported PDFs are signed with, printed on the cover; null when nothing signs. */
  certificateFingerprint?: () => string | null;
}

/**
 * The report document as Plat holds it now, from the assignment's kept answers; null for an unknown
 * assignment (or a plain project). What is missing is priced as buying it would be now: free when
 * the cache holds it, and still priced when the service is not reachable (by the price table).
 */
export function subjectReportBuilder(deps: ReportSourcesDeps): (assignmentId: string) => ReportDocument | null {
  const now = deps.now ?? (() => new Date());
  const priceNow = (operation: ServiceOperationName, parts: RequestParts): number | null => {
    try {
      return deps.gateway.preview(operation, parts).expectedCostMicroUsd;
    } catch {
      return deps.assignments.listPrice(operation, parts, deps.connectionId() ?? undefined);
    }
  };
  return (assignmentId) => {
    const sources = deps.assignments.reportSources(assignmentId);
    if (!sources) return null;
    const ref = sources.assignment.details.subjectRef;
    const certificateFingerprint = deps.certificateFingerprint?.() ?? null;
    const document = buildSubjectReport({
      ...sources,
      // The appraiser's figures are cited to the appraiser who signs the report with this installation's certificate.
      ...(certificateFingerprint === null ? {} : { appraiser: appraiserSigning(certificateFingerprint) }),
      generatedAt: now().toISOString(),
      // Priced only when missing: a preview touches the cache, and a kept answer needs no price.
      prices: {
        subjectReportMicroUsd: sources.subject === null ? priceNow('v3.recordQuery', subjectReportParts(ref)) : 0,
        summaryMicroUsd: sources.summary === null ? priceNow('v4.summary', subjectSummaryParts(ref)) : 0,
      },
    });
    return certificateFingerprint === null ? document : { ...document, cover: { ...document.cover, certificateFingerprint } };
  };
}

/** The appraiser as the report names them: by the certificate they sign with (its first 8 bytes; the cover prints all of it). */
export function appraiserSigning(fingerprint: string): string {
  const short = fingerprint.split(':').slice(0, 8).join(':');
  return `The appraiser (signing certificate SHA-256 ${short}…)`;
}

/** What refreshing the report's two sources would cost now (a refresh skips the cache). */
export function recheckPricer(deps: ReportSourcesDeps): (assignmentId: string) => { expectedCostMicroUsd: number | null; calls: number } | null {
  return (assignmentId) => {
    const sources = deps.assignments.reportSources(assignmentId);
    if (!sources) return null;
    const ref = sources.assignment.details.subjectRef;
    const connectionId = deps.connectionId() ?? undefined;
    const report = deps.assignments.listPrice('v3.recordQuery', subjectReportParts(ref), connectionId);
    const summary = deps.assignments.listPrice('v4.summary', subjectSummaryParts(ref), connectionId);
    // A price not known on this connection makes the sum not known: never a guess.
    return { expectedCostMicroUsd: report === null || summary === null ? null : report + summary, calls: 2 };
  };
}

export function reportHandlers(deps: {
  documentFor: (assignmentId: string) => ReportDocument | null;
  pdf: Pick<ReportPdfService, 'exportPdf' | 'verify'>;
}): Pick<IpcHandlers, 'getSubjectReport' | 'exportReportPdf' | 'verifyReport'> {
  return {
    getSubjectReport: async (request) => {
      const document = deps.documentFor(request.assignmentId);
      if (!document) throw new PlatFailure('not_found', 'There is no such assignment (a report needs an assignment with a subject)');
      return document;
    },
    exportReportPdf: async (request) => deps.pdf.exportPdf(request.assignmentId),
    verifyReport: async (request) => deps.pdf.verify(request.pdfBase64),
  };
}
