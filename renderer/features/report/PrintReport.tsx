// The print route (`/?route=print-report&assignment=<id>`): the report document alone, no app frame,
// laid out for paper. Plat's printers (Electron's hidden window, the browser host's Chromium) load it
// and wait for <html data-print-ready>; they take the running header and the page-number footer from
// data-print-header / data-print-footer. With `&dialog=1` it opens the browser's own print dialog
// instead (the fallback when no printer is found). A report with comparables draws its map first
// (offscreen, by the map's own renderer) and is ready only once the picture is on the page, or once
// the map is known not to draw, in which case the map's table is printed instead. The title
// research's graph is drawn the same way (by the graph's own renderer); when it cannot be, its
// tables print alone with a sentence saying so.
import { useEffect } from 'react';
import { useSubjectReport } from '../../platform/assignment-queries.ts';
import { platErrorOf } from '../../components/ErrorNotice.tsx';
import { ReportDocumentView } from './ReportDocumentView.tsx';
import { useMapImage } from './map-image.ts';
import { useGraphImage } from './graph-image.ts';
import { printFooterTemplate, printHeaderTemplate } from './report-model.ts';
import { usePlotChart } from '../../components/charts/plot-loader.ts';
import './report.css';
import './report-print.css';

export function PrintReport({ assignmentId, dialog }: { assignmentId: string; dialog: boolean }) {
  const report = useSubjectReport(assignmentId === '' ? null : assignmentId);
  const doc = report.data;
  const failure = assignmentId === '' ? 'The print address names no assignment.' : report.isError ? platErrorOf(report.error).message : null;
  const mapImage = useMapImage(doc?.comparables?.map?.spec ?? null);
  const mapSettled = mapImage === null || mapImage.status !== 'loading';
  const graphImage = useGraphImage(doc?.titleResearch?.graph?.spec ?? null);
  const graphSettled = graphImage === null || graphImage.status !== 'loading';
  // The charts' library is loaded before the report is shown, so each chart draws with the page.
  const plot = usePlotChart();

  useEffect(() => {
    const root = document.documentElement;
    root.classList.add('print-route');
    return () => root.classList.remove('print-route');
  }, []);

  useEffect(() => {
    const root = document.documentElement;
    if (failure !== null) {
      root.dataset.printError = failure;
      root.dataset.printReady = 'error';
      return;
    }
    if (!doc || !mapSettled || !graphSettled || plot === null) return;
    document.title = `${doc.cover.title} – ${doc.cover.subjectLabel}`;
    root.dataset.printHeader = printHeaderTemplate(doc);
    root.dataset.printFooter = printFooterTemplate(doc);
    let cancelled = false;
    // Ready once the fonts the layout uses are in (a printer that starts earlier paginates with
    // fallbacks) and the report's pictures are decoded (one printed before is left blank). `fonts` is
    // missing where there is no layout engine at all; a picture that cannot be decoded prints its alt text.
    const pictures = [...document.querySelectorAll<HTMLImageElement>('.print-report img')].map((image) =>
      typeof image.decode === 'function' ? image.decode().catch(() => undefined) : undefined,
    );
    void Promise.all([document.fonts?.ready ?? Promise.resolve(), ...pictures]).then(() => {
      if (cancelled) return;
      root.dataset.printReady = 'true';
      if (dialog) window.print();
    });
    return () => {
      cancelled = true;
    };
  }, [doc, failure, dialog, mapSettled, graphSettled, plot]);

  if (failure !== null) {
    return (
      <main className="print-report print-report--error">
        <p role="alert">The report cannot be printed: {failure}</p>
      </main>
    );
  }
  if (!doc || plot === null) {
    return (
      <main className="print-report">
        <p className="muted">Preparing the report…</p>
      </main>
    );
  }
  return (
    <main className="print-report" aria-label={`${doc.cover.title}: ${doc.cover.subjectLabel}`}>
      <ReportDocumentView doc={doc} mode="print" {...(mapImage ? { mapImage } : {})} {...(graphImage ? { graphImage } : {})} />
    </main>
  );
}
