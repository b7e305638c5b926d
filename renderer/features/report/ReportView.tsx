// The Report view: the active assignment's subject report, built by the core from the answers the
// assignment keeps (free to open, with the service down too). What the report still needs is offered
// with its price; every value shows its status and numbered endnote markers; alternatives sit beside
// the chosen value and the appraiser may choose another with a reason. Export PDF prints the same
// document with its evidence attached; "Verify a report" checks a PDF Plat exported.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MissingSource, ReportDocument } from '../../../shared/report/document.ts';
import type { Project } from '../../../shared/ipc.ts';
import { formatUsd } from '../../../shared/money.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { callPlat } from '../../platform/plat.ts';
import type { ServiceRequestParts } from '../../platform/service-calls.ts';
import { usePaidAnswer } from '../../platform/paid-answer.ts';
import { refreshAssignment, useSubjectReport } from '../../platform/assignment-queries.ts';
import { useAppInfo } from '../../platform/core-queries.ts';
import { useCoverageGap } from '../../platform/coverage-gap.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ActiveAssignmentGate } from '../../components/ActiveAssignmentGate.tsx';
import { downloadBase64File } from '../../components/download.ts';
import { useUiStore } from '../../app/ui-store.ts';
import { ReportDocumentView } from './ReportDocumentView.tsx';
import { ChoiceDialog, type ChoiceRequest } from './ChoiceDialog.tsx';
import { VerifyReport } from './VerifyReport.tsx';
import { missingTotal } from './report-model.ts';
import { printRoutePath } from '../../../shared/print-route.ts';
import { BusyButton } from '../../components/BusyButton.tsx';
import './report.css';

type Tab = 'report' | 'verify';

export function ReportView() {
  const [tab, setTab] = useState<Tab>('report');
  return (
    <div className="report-view stack gap-3">
      <div className="report-tabs" role="tablist" aria-label="Report">
        <TabButton id="report" current={tab} onSelect={setTab}>
          Subject report
        </TabButton>
        <TabButton id="verify" current={tab} onSelect={setTab}>
          Verify a report
        </TabButton>
      </div>
      <div role="tabpanel" id={`report-panel-${tab}`} aria-labelledby={`report-tab-${tab}`}>
        {tab === 'report' ? <SubjectReportPanel /> : <VerifyReport />}
      </div>
    </div>
  );
}

function TabButton(props: { id: Tab; current: Tab; onSelect: (tab: Tab) => void; children: string }) {
  const selected = props.id === props.current;
  return (
    <button
      type="button"
      role="tab"
      id={`report-tab-${props.id}`}
      aria-selected={selected}
      aria-controls={`report-panel-${props.id}`}
      tabIndex={selected ? 0 : -1}
      className="report-tabs__tab"
      onClick={() => props.onSelect(props.id)}
    >
      {props.children}
    </button>
  );
}

function SubjectReportPanel() {
  return (
    <ActiveAssignmentGate purpose="The report is built for the active assignment’s subject." testId="report-no-assignment" className="empty-state">
      {(assignment) => <AssignmentReport key={assignment.id} assignment={assignment} />}
    </ActiveAssignmentGate>
  );
}

function AssignmentReport({ assignment }: { assignment: Project }) {
  const queryClient = useQueryClient();
  const report = useSubjectReport(assignment.id);
  const [choosing, setChoosing] = useState<ChoiceRequest | null>(null);

  const choose = useMutation({
    mutationFn: (input: { field: string; choice: { alternativeKey: string; reason: string } | null }) =>
      callPlat('setValueChoice', { assignmentId: assignment.id, field: input.field, choice: input.choice }),
    onSuccess: () => {
      setChoosing(null);
      void refreshAssignment(queryClient, assignment.id);
    },
  });

  const doc = report.data;
  return (
    <div className="report-screen stack gap-3">
      <ReportHeader assignment={assignment} doc={doc} />
      {report.isError && <ErrorNotice error={report.error} onRetry={() => void report.refetch()} />}
      {report.isPending && <p className="muted">Building the report from the answers this assignment holds…</p>}
      {doc && (
        <>
          {doc.missing.length > 0 && <MissingSources assignmentId={assignment.id} subjectRef={assignment.assignment?.subjectRef ?? null} missing={doc.missing} />}
          {choose.isError && !choosing && <ErrorNotice error={choose.error} />}
          <ReportDocumentView
            doc={doc}
            mode="screen"
            busyField={choose.isPending ? (choose.variables?.field ?? null) : null}
            onChooseAlternative={(value, alternative) => {
              choose.reset();
              setChoosing({ value, alternative });
            }}
            onClearChoice={(value) => choose.mutate({ field: value.field, choice: null })}
          />
        </>
      )}
      <ChoiceDialog
        request={choosing}
        saving={choose.isPending}
        error={choosing ? choose.error : null}
        onCancel={() => setChoosing(null)}
        onSave={(reason) => {
          if (!choosing) return;
          choose.mutate({ field: choosing.value.field, choice: { alternativeKey: choosing.alternative.key, reason } });
        }}
      />
    </div>
  );
}

function ReportHeader({ assignment, doc }: { assignment: Project; doc: ReportDocument | undefined }) {
  const openAssignment = useUiStore((state) => state.openAssignment);
  const details = assignment.assignment;
  return (
    <header className="report-head" data-testid="report-head">
      <div className="report-head__facts">
        <p className="report-head__kicker muted">Assignment · {assignment.name}</p>
        <h2 className="report-head__subject">{details?.subjectLabel || details?.subjectRef}</h2>
        <dl className="report-head__meta">
          <dt>Effective</dt>
          <dd>{details?.effectiveDate}</dd>
          {details?.client && (
            <>
              <dt>Client</dt>
              <dd>{details.client}</dd>
            </>
          )}
          {details?.reference && (
            <>
              <dt>Reference</dt>
              <dd>{details.reference}</dd>
            </>
          )}
          {doc && (
            <>
              <dt>Generated</dt>
              <dd>{formatDateTime(doc.cover.generatedAt)}</dd>
            </>
          )}
        </dl>
        {doc && doc.cover.dataAsOf.length > 0 && <p className="report-head__asof muted">Data as of: {doc.cover.dataAsOf.join(' · ')}</p>}
      </div>
      <div className="report-head__actions">
        <button type="button" className="button" onClick={() => openAssignment(assignment.id)}>
          Open the assignment
        </button>
        <ExportPdf assignmentId={assignment.id} doc={doc} />
      </div>
    </header>
  );
}

function ExportPdf({ assignmentId, doc }: { assignmentId: string; doc: ReportDocument | undefined }) {
  const info = useAppInfo();
  const exportPdf = useMutation({
    mutationFn: () => callPlat('exportReportPdf', { assignmentId }),
    onSuccess: (result) => downloadBase64File(result.filename, result.pdfBase64, 'application/pdf'),
  });
  const browserHost = info.data?.runtime === 'browser-host';
  const incomplete = (doc?.missing.length ?? 0) > 0;
  return (
    <div className="report-export stack align-end gap-1">
      <BusyButton
        className="button button--primary"
        disabled={!doc}
        busy={exportPdf.isPending}
        onClick={() => exportPdf.mutate()}
        title={incomplete ? 'Sources not bought yet are printed as unavailable' : undefined}
      >
        {exportPdf.isPending ? 'Exporting…' : 'Export PDF'}
      </BusyButton>
      <p className="report-export__status" role="status" data-testid="report-export-status">
        {exportPdf.isPending && 'Printing the report and attaching its citations…'}
        {exportPdf.isSuccess &&
          `Exported “${exportPdf.data.filename}”: ${exportPdf.data.pageCount} ${exportPdf.data.pageCount === 1 ? 'page' : 'pages'}, ${formatBytes(exportPdf.data.byteLength)}.`}
      </p>
      {exportPdf.isError && (
        <div className="report-export__error">
          <ErrorNotice error={exportPdf.error} onRetry={() => exportPdf.mutate()} compact />
          {browserHost && (
            <p>
              <button type="button" className="button" onClick={() => window.open(printRoutePath(assignmentId, true), '_blank')}>
                Print with the browser’s dialog…
              </button>{' '}
              <span className="muted">Choose “Save as PDF” there. That PDF has no citations attached, so “Verify a report” cannot check it.</span>
            </p>
          )}
        </div>
      )}
    </div>
  );
}

const formatBytes = (bytes: number): string => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`);

function MissingSources({ assignmentId, subjectRef, missing }: { assignmentId: string; subjectRef: string | null; missing: MissingSource[] }) {
  const total = missingTotal({ missing });
  return (
    <section className="report-missing notice notice--warning" aria-labelledby="report-missing-title" data-testid="report-missing">
      <h2 id="report-missing-title">
        {missing.length === 1 ? 'One source is not bought yet' : `${missing.length} sources are not bought yet`}
        {total === null ? <span className="muted"> · price not known</span> : total > 0 && <span className="muted"> · {formatUsd(total)} in all</span>}
      </h2>
      <p>The sections they fill say “unavailable” until then. Each is bought once and kept with this assignment; opening it again is free.</p>
      <ul className="report-missing__list stack">
        {missing.map((source) => (
          <li key={source.ipcOperation}>
            <BuySource assignmentId={assignmentId} subjectRef={subjectRef} source={source} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function BuySource({ assignmentId, subjectRef, source }: { assignmentId: string; subjectRef: string | null; source: MissingSource }) {
  const queryClient = useQueryClient();
  // What the catalog's coverage says this source will lack for the subject's area, said before the charge.
  const lacking = useCoverageGap(source.ipcOperation === 'queryRecords' ? 'subject_report' : 'subject_summary', subjectRef);
  // The document names the IPC operation and its request exactly as the renderer sends it.
  const parts = (source.request as { request?: unknown }).request as ServiceRequestParts<typeof source.ipcOperation>;
  // Always through the core, even when this session already holds the answer (bought on the property
  // page before the assignment began): the core serves it from its cache, free, and keeps it with the
  // assignment, which a session-only copy would not. Then the report is built again from what it keeps.
  const paid = usePaidAnswer(source.ipcOperation, parts, { askCore: true });
  const refreshReport = () => void refreshAssignment(queryClient, assignmentId);
  return (
    <div className="report-missing__item cluster">
      <span className="report-missing__label">{source.label}</span>
      <ChargeButton
        operation={source.ipcOperation}
        request={parts}
        label="Buy"
        what={source.label.toLowerCase()}
        busy={paid.query.isFetching}
        lacking={lacking}
        onRun={(options) => void paid.buy(options).finally(refreshReport)}
      />
      {paid.query.isError && !paid.query.isFetching && <ErrorNotice error={paid.query.error} onRetry={() => void paid.retry().finally(refreshReport)} compact />}
    </div>
  );
}
