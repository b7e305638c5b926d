// The subject report document, rendered one way for the screen and for print: the same sections,
// values, statuses, alternatives and endnote numbers, then the comparables section when the
// assignment has one (ComparablesReportSection.tsx) and its title research when it has some
// (TitleResearchReportSection.tsx). On screen each marker is a chip that opens its full citation; in
// print it is "[n]" linking to endnote n, followed by the endnotes and the citation appendix (what
// the PDF's citations.json carries, as a table).
import type { ReportDocument, ReportSection } from '../../../shared/report/document.ts';
import type { AlternativeValue, CitedValue } from '../../../shared/cited/value.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { citationText } from '../../../shared/cited/citation.ts';
import { citationRows } from '../../../shared/report/citation-export.ts';
import { chargeText, citationIndex, sectionStatusText, spendLine, statusWords } from './report-model.ts';
import { LimitationItem, TableView, ValueDetails, ValueLine, type ReportMode, type ValueContext } from './ReportValues.tsx';
import { ComparablesReportSection } from './ComparablesReportSection.tsx';
import type { MapImageState } from './map-image.ts';
import { TitleResearchReportSection } from './TitleResearchReportSection.tsx';
import type { GraphImageState } from './graph-image.ts';
import { ReportSectionFrame } from './ReportSectionFrame.tsx';
import { ReceivedNotice } from '../../components/ReceivedNotice.tsx';
import { numeric, ReportTableFrame } from './ReportTableFrame.tsx';

export type { ReportMode } from './ReportValues.tsx';

export interface ReportDocumentViewProps {
  doc: ReportDocument;
  mode: ReportMode;
  /** Screen only: the appraiser chose an alternative (asks for the reason). */
  onChooseAlternative?: (value: CitedValue, alternative: AlternativeValue) => void;
  /** Screen only: take the appraiser's choice back. */
  onClearChoice?: (value: CitedValue) => void;
  /** Fields whose choice is being saved. */
  busyField?: string | null;
  /**
   * The comparables map, drawn by the caller (the print route draws it before it says it is ready).
   * Left out, the view draws it itself and shows "Loading the map…" meanwhile.
   */
  mapImage?: MapImageState;
  /** The title research's graph, drawn by the caller as the map is; left out, the view draws it and shows "Drawing the graph…". */
  graphImage?: GraphImageState;
}

export function ReportDocumentView(props: ReportDocumentViewProps) {
  const { doc, mode, mapImage, graphImage, ...handlers } = props;
  const context: ValueContext = { ...handlers, mode, index: citationIndex(doc) };
  return (
    <div className={`report-doc report-doc--${mode} stack gap-4`} data-testid="report-document">
      {mode === 'print' ? <PrintCover doc={doc} /> : null}
      {doc.received ? (
        <ReceivedNotice receivedIn={doc.received.text}>
          <p>Read from the file: {doc.received.answers.join('; ')}. Each of their citations says so; re-check them from the assignment’s page.</p>
        </ReceivedNotice>
      ) : null}
      {doc.sections.map((section) => (
        <SectionView key={section.id} section={section} context={context} />
      ))}
      {doc.comparables ? <ComparablesReportSection section={doc.comparables} context={context} {...(mapImage ? { mapImage } : {})} /> : null}
      {doc.titleResearch ? <TitleResearchReportSection section={doc.titleResearch} context={context} {...(graphImage ? { graphImage } : {})} /> : null}
      <SpendSection doc={doc} mode={mode} />
      <QueryLogSection doc={doc} />
      <Endnotes doc={doc} mode={mode} />
      {mode === 'print' ? <CitationAppendix doc={doc} /> : null}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Cover (print; the screen shows the same facts in the Report view's header)

function PrintCover({ doc }: { doc: ReportDocument }) {
  const { cover } = doc;
  return (
    <section className="report-cover" aria-label="Cover">
      <p className="report-cover__kicker">Plat · {cover.title}</p>
      <h1 className="report-cover__subject">{cover.subjectLabel}</h1>
      <p className="report-cover__ref mono">{cover.subjectRef}</p>
      <dl className="report-cover__facts">
        <dt>Effective date</dt>
        <dd>{cover.effectiveDate}</dd>
        <dt>Assignment</dt>
        <dd>{cover.assignmentName}</dd>
        {cover.reference && (
          <>
            <dt>Reference</dt>
            <dd>{cover.reference}</dd>
          </>
        )}
        <dt>Client</dt>
        <dd>{cover.client || 'Not given'}</dd>
        <dt>Intended use</dt>
        <dd>{cover.intendedUse || 'Not given'}</dd>
        <dt>Generated</dt>
        <dd>{formatDateTime(cover.generatedAt)}</dd>
        <dt>Data as of</dt>
        <dd>
          {cover.dataAsOf.length === 0 ? (
            'No sources bought yet'
          ) : (
            <ul className="report-cover__asof">
              {cover.dataAsOf.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      {cover.certificateFingerprint && (
        <p className="report-cover__signature">
          Signed by this Plat installation · certificate SHA-256 <span className="mono">{cover.certificateFingerprint}</span>
        </p>
      )}
      <p className="report-cover__rule">
        Every value in this report is followed by a numbered marker that resolves to an endnote naming its publisher, dataset and as-of date. Values
        marked <em>derived</em> were computed from the sources named, <em>synthetic</em> values were made up for Plat’s sample and are not public
        records, and <em>unavailable</em> says why no source gives the value. The citations are attached to this PDF as citations.json and
        citations.csv.
      </p>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// Sections and values

/** Values and limitations a section may hold and still be kept on one page in print. */
const SHORT_SECTION_LINES = 8;

function SectionView({ section, context }: { section: ReportSection; context: ValueContext }) {
  const headingId = `report-section-${section.id}`;
  return (
    <ReportSectionFrame
      // A short section prints whole on one page: its heading never sits alone at a page's foot.
      className={section.values.length + section.limitations.length <= SHORT_SECTION_LINES ? 'report-section report-section--short' : 'report-section'}
      headingId={headingId}
      title={section.title}
      section={section.id}
      aside={<span className={`report-badge report-badge--${section.status}`}>{sectionStatusText(section.status)}</span>}
    >
      {section.limitations.length > 0 && (
        <ul className="report-section__limitations" aria-label={`Limitations of ${section.title}`}>
          {section.limitations.map((limitation) => (
            <LimitationItem key={limitation.text} limitation={limitation} context={context} />
          ))}
        </ul>
      )}
      {section.values.length > 0 && (
        <dl className="report-values">
          {section.values.map((value) => (
            <div className="report-values__row" key={value.field} data-field={value.field}>
              <dt>{value.label}</dt>
              <dd>
                <ValueLine value={value} context={context} />
                <ValueDetails value={value} context={context} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      {section.tables.map((table) => (
        <TableView key={table.id} table={table} context={context} />
      ))}
      {section.values.length === 0 && section.tables.length === 0 && section.limitations.length === 0 && (
        <p className="muted">No source gives anything for this section.</p>
      )}
    </ReportSectionFrame>
  );
}

// ---------------------------------------------------------------------------------------------
// Spend, query log, endnotes, appendix

function SpendSection({ doc, mode }: { doc: ReportDocument; mode: ReportMode }) {
  return (
    <ReportSectionFrame className="report-section report-section--meta" headingId="report-spend" title="Spend">
      <p data-testid="report-spend">{spendLine(doc.spend)}</p>
      {mode === 'print' && <p className="muted">Spent by this assignment on the Property Records Service, as recorded in Plat’s ledger.</p>}
    </ReportSectionFrame>
  );
}

function QueryLogSection({ doc }: { doc: ReportDocument }) {
  return (
    <ReportSectionFrame
      className="report-section report-section--meta"
      headingId="report-query-log"
      title="What was asked"
      aside={<span className="muted">{doc.queryLog.length === 1 ? '1 call' : `${doc.queryLog.length} calls`}</span>}
    >
      {doc.queryLog.length === 0 ? (
        <p className="muted">Nothing has been asked for this assignment yet.</p>
      ) : (
        <ReportTableFrame label="Query log" columns={['Time', 'Operation', 'Parameters', numeric('Cost'), 'Request id']}>
          {doc.queryLog.map((entry, index) => (
            <tr key={`${entry.at}:${index}`}>
              <td className="report-nowrap">{formatDateTime(entry.at)}</td>
              <td className="mono">{entry.operation}</td>
              <td className="mono report-params">{entry.parameters}</td>
              <td className="report-num">{chargeText(entry)}</td>
              <td className="mono report-id">{entry.requestId ?? '—'}</td>
            </tr>
          ))}
        </ReportTableFrame>
      )}
    </ReportSectionFrame>
  );
}

function Endnotes({ doc, mode }: { doc: ReportDocument; mode: ReportMode }) {
  if (doc.citations.length === 0) return null;
  return (
    <ReportSectionFrame
      className="report-section report-section--meta report-endnotes"
      headingId="report-endnotes"
      title={mode === 'print' ? 'Endnotes' : 'Sources'}
      aside={<span className="muted">{doc.citations.length === 1 ? '1 source' : `${doc.citations.length} sources`}</span>}
    >
      <ol className="report-endnotes__list stack gap-1">
        {doc.citations.map((citation) => (
          <li key={citation.id} id={`endnote-${citation.number}`} value={citation.number} className={citation.synthetic ? 'report-endnote--synthetic' : undefined}>
            <span className="report-endnote__number">[{citation.number}]</span> <span className="report-endnote__text">{citationText(citation)}</span>
          </li>
        ))}
      </ol>
    </ReportSectionFrame>
  );
}

function CitationAppendix({ doc }: { doc: ReportDocument }) {
  // The same rows as the attached citations.json / citations.csv, so the paper and the evidence agree.
  const rows = citationRows(doc);
  return (
    <ReportSectionFrame className="report-section report-section--meta report-appendix" headingId="report-appendix" title="Citation appendix">
      <p className="muted">Every value printed above, alternatives included, with its field, status and endnotes: the rows of the attached citations.csv.</p>
      <ReportTableFrame label="Citation appendix" columns={['Field', 'Value as printed', 'Status', 'Endnotes']}>
        {rows.map((row, rowIndex) => (
          <tr key={`${row.field}:${row.alternativeKey ?? ''}:${rowIndex}`}>
            <td>
              {row.label}
              {row.role === 'alternative' ? ' (alternative)' : ''}
              <span className="report-appendix__field mono">
                {row.section} · {row.field}
              </span>
            </td>
            <td>{row.status === 'unavailable' ? '—' : row.printed}</td>
            <td>{statusWords(row.status).label}</td>
            <td className="report-nowrap">{row.markers.map((number) => `[${number}]`).join(' ') || '—'}</td>
          </tr>
        ))}
      </ReportTableFrame>
    </ReportSectionFrame>
  );
}
