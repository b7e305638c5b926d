// "Verify a report": open a PDF Plat exported (file picker or drop) and see, value by value, whether
// the data Plat holds now agrees. Reading it costs nothing (the core compares with its own store);
// re-checking the sources against the service is offered with its price. A PDF that is not Plat's,
// or whose attached evidence was altered, is said so plainly.
import { useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReportVerification } from '../../../shared/ipc.ts';
import { formatUsd } from '../../../shared/money.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { callPlat } from '../../platform/plat.ts';
import { callService } from '../../platform/service-calls.ts';
import { refreshAssignment, useAssignment } from '../../platform/assignment-queries.ts';
import { useProjects } from '../../platform/core-queries.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { base64FromBytes } from '../../components/download.ts';
import { HiddenFileInput } from '../../components/HiddenFileInput.tsx';
import { useUiStore } from '../../app/ui-store.ts';
import { CHECK_OUTCOME_WORDS, CHECK_WORDS, OUTCOME_WORDS, reportSourceRequests, verificationHeadline } from './report-model.ts';
import './verify-report.css';
import { ReportTableFrame } from './ReportTableFrame.tsx';

// The bridge carries at most about 11 MiB of PDF (ipc.ts verifyReport): said before reading, not after.
const MAX_PDF_BYTES = Math.floor((15 * 1024 * 1024 * 3) / 4);

export function VerifyReport() {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const verify = useMutation({
    mutationFn: async (file: File) => callPlat('verifyReport', { pdfBase64: base64FromBytes(new Uint8Array(await file.arrayBuffer())) }),
  });

  const take = (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    setFileName(file.name);
    verify.reset();
    if (file.size === 0) {
      setFileProblem(`“${file.name}” is empty: choose the PDF Plat exported.`);
      return;
    }
    if (file.size > MAX_PDF_BYTES) {
      setFileProblem(`“${file.name}” is ${(file.size / (1024 * 1024)).toFixed(1)} MB; Plat checks PDFs up to 11 MB. A report Plat exported is far smaller: is this the right file?`);
      return;
    }
    setFileProblem(null);
    setFile(file);
    verify.mutate(file);
  };

  return (
    <div className="report-verify">
      <div
        className={`report-verify__drop${dragging ? ' report-verify__drop--over' : ''}`}
        data-testid="verify-drop"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          take(event.dataTransfer.files);
        }}
      >
        <p>
          <strong>Check a PDF Plat exported</strong> against the data Plat holds now, value by value. Reading it is free; nothing is bought.
        </p>
        <p>
          <button type="button" className="button button--primary" onClick={() => inputRef.current?.click()} disabled={verify.isPending}>
            Choose a PDF…
          </button>{' '}
          <span className="muted">or drop it here</span>
        </p>
        <HiddenFileInput inputRef={inputRef} accept="application/pdf,.pdf" label="PDF to verify" onFiles={take} />
      </div>
      <p role="status" className="report-verify__status">
        {verify.isPending && fileName ? `Reading “${fileName}”…` : ''}
      </p>
      {fileProblem && (
        <p className="notice notice--error" role="alert">
          {fileProblem}
        </p>
      )}
      {verify.isError && <ErrorNotice error={verify.error} />}
      {verify.data && (
        <VerificationResult result={verify.data} fileName={fileName} onRechecked={() => file && verify.mutate(file)} rechecking={verify.isPending} />
      )}
    </div>
  );
}

function VerificationResult(props: { result: ReportVerification; fileName: string | null; onRechecked: () => void; rechecking: boolean }) {
  const { result, fileName } = props;
  const headline = verificationHeadline(result);
  const openAssignment = useUiStore((state) => state.openAssignment);
  const problemsFirst = [...result.rows].sort((a, b) => rank(a.outcome) - rank(b.outcome));
  return (
    <section className="report-verify__result" aria-labelledby="verify-result-title" data-testid="verify-result" data-kind={result.kind}>
      <div className={`notice report-verify__verdict report-verify__verdict--${headline.tone}`} role="alert">
        <h2 id="verify-result-title">{headline.text}</h2>
        <p>{result.message}</p>
        {(result.assignmentName || result.generatedAt) && (
          <p className="muted">
            {fileName ? `“${fileName}”` : 'This PDF'}
            {result.assignmentName ? ` · assignment ${result.assignmentName}` : ''}
            {result.generatedAt ? ` · generated ${formatDateTime(result.generatedAt)}` : ''}
          </p>
        )}
      </div>
      {result.checks.length > 0 && (
        <ul className="report-verify__checks" aria-label="What the PDF proves">
          {result.checks.map((check) => (
            <li key={check.check} data-check={check.check} data-outcome={check.outcome} className={`report-verify__check report-verify__check--${check.outcome}`}>
              <strong>{CHECK_WORDS[check.check]}</strong> <span className={`report-outcome report-outcome--${check.outcome}`}>{CHECK_OUTCOME_WORDS[check.outcome]}</span> {check.detail}
            </li>
          ))}
        </ul>
      )}
      {result.recheck && result.assignmentId && (
        <Recheck assignmentId={result.assignmentId} price={result.recheck} onRechecked={props.onRechecked} busy={props.rechecking} />
      )}
      {result.assignmentId && (
        <p>
          <button type="button" className="button button--small" onClick={() => openAssignment(result.assignmentId)}>
            Open the assignment
          </button>
        </p>
      )}
      {result.rows.length > 0 && (
        <ReportTableFrame label="Values in the PDF" columns={['Value', 'In the PDF', 'Plat holds now', 'Outcome', 'Source']}>
          {problemsFirst.map((row, index) => (
            <tr key={`${row.field}:${index}`} data-outcome={row.outcome} className={`report-verify__row report-verify__row--${row.outcome}`}>
              <td>
                {row.label}
                <span className="report-appendix__field mono">{row.field}</span>
              </td>
              <td>{row.printed}</td>
              <td>{row.current ?? <span className="muted">—</span>}</td>
              <td>
                <span className={`report-outcome report-outcome--${row.outcome}`}>{OUTCOME_WORDS[row.outcome]}</span>
              </td>
              <td className="report-verify__citation">{row.citation}</td>
            </tr>
          ))}
        </ReportTableFrame>
      )}
    </section>
  );
}

const rank = (outcome: ReportVerification['rows'][number]['outcome']): number =>
  ({ altered: 0, changed: 1, 'not-held': 2, unchanged: 3 })[outcome];

/**
 * Re-checking buys the report's sources again, fresh, for the price the core quoted, then verifies
 * the same PDF again. Only for the active assignment: what is bought is attached to it.
 */
function Recheck(props: { assignmentId: string; price: { expectedCostMicroUsd: number | null; calls: number }; onRechecked: () => void; busy: boolean }) {
  const queryClient = useQueryClient();
  const projects = useProjects();
  const assignment = useAssignment(props.assignmentId);
  const [confirming, setConfirming] = useState(false);
  const subjectRef = assignment.data?.project.assignment?.subjectRef ?? null;
  const recheck = useMutation({
    mutationFn: async () => {
      if (!subjectRef) return;
      for (const source of reportSourceRequests(subjectRef)) {
        await callService(source.operation, source.parts as never, { refresh: true, confirmed: true });
      }
    },
    onSuccess: () => props.onRechecked(),
    onSettled: () => void refreshAssignment(queryClient, props.assignmentId),
  });
  const price = props.price.expectedCostMicroUsd === null ? 'price not known' : formatUsd(props.price.expectedCostMicroUsd);
  const active = projects.data?.activeProjectId === props.assignmentId;
  return (
    <div className="report-verify__recheck">
      <p>
        This compares the PDF with the answers Plat holds, at no cost. Re-checking against the service buys the report’s{' '}
        {props.price.calls === 1 ? 'source' : `${props.price.calls} sources`} again, fresh, for <strong>{price}</strong>.
      </p>
      {assignment.isError ? (
        <p className="muted">This machine does not hold the assignment, so it cannot be re-checked here. Import its workfile first.</p>
      ) : !active ? (
        <p className="muted">Make this assignment active on the Assignments page to re-check it: what is bought is kept with the active assignment.</p>
      ) : (
        <p>
          <button type="button" className="button" disabled={!subjectRef || recheck.isPending || props.busy} onClick={() => setConfirming(true)}>
            {recheck.isPending ? 'Re-checking…' : `Re-check against the service (${price})`}
          </button>
        </p>
      )}
      {recheck.isError && <ErrorNotice error={recheck.error} onRetry={() => recheck.mutate()} compact />}
      <ConfirmDialog
        open={confirming}
        title="Re-check against the service"
        titleId="recheck-title"
        tone="primary"
        confirmLabel={`Buy for ${price}`}
        onConfirm={() => {
          setConfirming(false);
          recheck.mutate();
        }}
        onCancel={() => setConfirming(false)}
      >
        <p>
          Buying the report’s sources again costs <strong>{price}</strong>. The fresh answers are kept with the assignment and the PDF is checked against
          them.
        </p>
      </ConfirmDialog>
    </div>
  );
}
