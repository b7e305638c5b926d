// The sales comparison out of Plat: as JSON shaped after UAD 3.6's sales comparison section (for
// reading and review; it says itself that it is not a certified UAD file) and the grid as CSV for a
// spreadsheet, and the regression's every analyzed sale as CSV for a reviewer's refit. All are built
// from the same analysis the screen shows, citations included.
import { useState } from 'react';
import type { Project } from '../../../shared/ipc.ts';
import type { ComparablesAnalysis } from '../../../shared/comparables/model.ts';
import { salesComparisonUad } from '../../../shared/comparables/uad-export.ts';
import { gridCsv } from '../../../shared/comparables/grid-csv.ts';
import { regressionCsv } from '../../../shared/comparables/regression-csv.ts';
import { useAppInfo } from '../../platform/core-queries.ts';
import { downloadTextFile } from '../../components/download.ts';
import { useComparablesStore } from './comparables-store.ts';
import { exportFilename } from './comparables-model.ts';

export function ExportButtons({ analysis, assignment }: { analysis: ComparablesAnalysis; assignment: Project }) {
  const info = useAppInfo();
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const details = assignment.assignment!;
  const run = (what: () => string) => {
    try {
      setStatus({ ok: true, text: `Exported “${what()}”.` });
    } catch (error) {
      setStatus({ ok: false, text: `Not exported: ${error instanceof Error ? error.message : String(error)}` });
    }
  };
  const exportUad = () =>
    run(() => {
      const workfile = useComparablesStore.getState().workfile;
      if (!workfile) throw new Error('the workfile is not loaded yet.');
      const document = salesComparisonUad(analysis, {
        workfile,
        assignment: { name: assignment.name, effectiveDate: details.effectiveDate, subjectRef: details.subjectRef },
        generatedAt: new Date().toISOString(),
        appVersion: info.data?.appVersion ?? 'unknown',
      });
      const filename = exportFilename(assignment.name, 'sales comparison (UAD-shaped)', details.effectiveDate, 'json');
      downloadTextFile(filename, `${JSON.stringify(document, null, 2)}\n`, 'application/json');
      return filename;
    });
  const exportCsv = () =>
    run(() => {
      const workfile = useComparablesStore.getState().workfile;
      const filename = exportFilename(assignment.name, 'sales comparison grid', details.effectiveDate, 'csv');
      downloadTextFile(filename, gridCsv(analysis, workfile ?? undefined), 'text/csv');
      return filename;
    });
  const exportRegressionCsv = () =>
    run(() => {
      const filename = exportFilename(assignment.name, 'regression', details.effectiveDate, 'csv');
      downloadTextFile(filename, regressionCsv(analysis.support), 'text/csv');
      return filename;
    });
  return (
    <span className="comps-export">
      <button type="button" className="button" onClick={exportUad} title="Shaped after UAD 3.6’s sales comparison section; not a certified UAD file">
        Export UAD-shaped JSON
      </button>
      <button type="button" className="button" onClick={exportCsv}>
        Export grid CSV
      </button>
      <button type="button" className="button" onClick={exportRegressionCsv} title="Every sale the regression analyzed, with its predictors, so a reviewer can refit it">
        Export regression CSV
      </button>
      <span className={`comps-export__status${status && !status.ok ? ' comps-export__status--failed' : ''}`} role="status" data-testid="comps-export-status">
        {status?.text}
      </span>
    </span>
  );
}
