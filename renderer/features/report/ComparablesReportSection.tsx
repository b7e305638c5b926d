// The report's comparables section, on screen and on paper: the search as run, the map (an image with
// its alt text and caption, or its table when it cannot be drawn), the sales comparison grid (every
// cell with its endnote markers, the adjustment beneath), the rates beside the regression's
// suggestions, the regression itself, the sales analyzed and not used, and the prior sales. On paper
// the grid goes three comps to a table, as URAR pages do, so it fits a portrait page.
import type { ComparablesGrid, ComparablesMap, ComparablesSection, ComparablesSearch, NotUsedRow } from '../../../shared/report/document.ts';
import type { CitedValue } from '../../../shared/cited/value.ts';
import { rateLabels } from '../../../shared/comparables/model.ts';
import { mapRoleLabels } from '../../../shared/comparables/map-spec.ts';
import { formatAdjustment } from '../../../shared/comparables/adjustments.ts';
import type { ReactNode } from 'react';
import { formatDateTime, formatDay } from '../../../shared/format-date.ts';
import { formatPublishedDollars } from '../../../shared/format/dollars.ts';
import { formatFixed, formatR2 } from '../../../shared/format/number.ts';
import { rangeBasisText } from '../../../shared/comparables/empty-words.ts';
import { LimitationItem, Markers, TableView, ValueLine, type ValueContext } from './ReportValues.tsx';
import { useMapImage, type MapImageState } from './map-image.ts';
import { ReportFigure } from './ReportFigure.tsx';
import { MissingLines, PartHeading, PartProblems, ReportPart, ReportSectionFrame } from './ReportSectionFrame.tsx';
import { chunkColumns, excludedGroups, excludedWords, PRINT_COMPS_PER_TABLE, sharedUnavailableReason, weightText } from './comparables-report-model.ts';
import { rateText, rateWithInterval } from '../../../shared/comparables/rate-text.ts';
import './comparables-report.css';
import { numeric, ReportTableFrame } from './ReportTableFrame.tsx';
import { MarketReportPart } from './MarketReportPart.tsx';
import { ReportChart } from './ReportChart.tsx';

export function ComparablesReportSection({ section, context, mapImage }: { section: ComparablesSection; context: ValueContext; mapImage?: MapImageState }) {
  return (
    <ReportSectionFrame className="report-section report-comps" headingId="report-section-comparables" title={section.title} section="comparables">
      <MissingLines lines={section.missing} label="What the comparables section does not have yet" />
      <PartProblems prefix="report-comps" problems={section.problems} label="What does not add up" />
      {section.search && <SearchAsRun search={section.search} context={context} />}
      {section.map && (mapImage ? <MapFigure map={section.map} image={mapImage} /> : <DrawnMapFigure map={section.map} />)}
      {section.grid && <SalesGrid grid={section.grid} context={context} />}
      {section.grid &&
        section.charts?.map((chart) => (
          <ReportPart key={chart.id} prefix="report-comps" id={chart.id} title={chart.title} modifier>
            <ReportChart spec={chart} context={context} />
          </ReportPart>
        ))}
      {section.search && section.market && <MarketReportPart market={section.market} context={context} />}
      {section.grid && <RatesTable grid={section.grid} context={context} />}
      {section.support && (
        <RegressionView
          support={section.support}
          unaddressed={new Set(section.notUsed.filter((row) => row.address.status === 'unavailable').map((row) => row.id))}
          context={context}
        />
      )}
      {section.search && <NotUsedTable rows={section.notUsed} empty={section.search.notUsedEmpty} takenIn={section.takenIn} context={context} />}
      {section.priorSales && (
        <ReportPart prefix="report-comps" id="prior" title="Prior sales" modifier>
          <TableView table={section.priorSales} context={context} />
        </ReportPart>
      )}
    </ReportSectionFrame>
  );
}

// ---------------------------------------------------------------------------------------------
// The search and the map

function SearchAsRun({ search, context }: { search: ComparablesSearch; context: ValueContext }) {
  return (
    <ReportPart prefix="report-comps" id="search" title="The search as run">
      <ul className="report-comps__criteria">
        {search.lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {search.limitations.length > 0 && (
        <ul className="report-section__limitations" aria-label="Limitations of the search’s answer">
          {search.limitations.map((limitation) => (
            <LimitationItem key={limitation.text} limitation={limitation} context={context} />
          ))}
        </ul>
      )}
    </ReportPart>
  );
}

/** The map drawn here (the screen): "Loading the map…" until the picture is ready. */
function DrawnMapFigure({ map }: { map: ComparablesMap }) {
  const image = useMapImage(map.spec);
  return <MapFigure map={map} image={image ?? { status: 'loading' }} />;
}

function MapFigure({ map, image }: { map: ComparablesMap; image: MapImageState }) {
  const caption = [map.caption, image.status === 'ready' && image.attribution ? `${image.attribution}.` : null].filter(Boolean).join(' ');
  return (
    <ReportFigure
      block="report-map"
      image={image}
      alt={map.spec.altText}
      pixelsPerPoint={2}
      heading={
        <PartHeading prefix="report-comps" id="map">
          Map
        </PartHeading>
      }
      labelledBy="report-comps-map"
      loading="Loading the map…"
      failed={(message) => (
        <>
          <p className="report-map__failed" role="note">
            The map could not be drawn here ({message}). What it shows is listed below.
          </p>
          <p className="report-map__alt">{map.spec.altText}</p>
          <MapTable map={map} />
        </>
      )}
      caption={caption}
    />
  );
}

/** The map as a table: the subject and every sale drawn, with its role and distance. */
function MapTable({ map }: { map: ComparablesMap }) {
  const { subject } = map.spec;
  return (
    <ReportTableFrame label="The map’s points" columns={['Point', 'Address', 'Role', 'From the subject']}>
      {subject && (
        <tr>
          <td>Subject</td>
          <td>{subject.label}</td>
          <td>Subject</td>
          <td>{subject.approximate ? 'Tax-square centroid (approximate)' : '—'}</td>
        </tr>
      )}
      {map.legend.map((point) => (
        <tr key={point.id}>
          <td className="report-nowrap">{point.number !== null ? `Comp ${point.number}` : '•'}</td>
          <td>{point.label}</td>
          <td>{mapRoleLabels[point.role]}</td>
          <td className="report-nowrap">{point.distance}</td>
        </tr>
      ))}
    </ReportTableFrame>
  );
}

// ---------------------------------------------------------------------------------------------
// The grid

/**
 * A grid cell's value: compact, with its status flag and markers; an unavailable one says why beneath
 * (or "as above" when the cell above gave the same reason).
 */
function GridValue({ value, context, sameReasonAbove = false }: { value: CitedValue; context: ValueContext; sameReasonAbove?: boolean }) {
  if (value.status === 'unavailable') {
    return (
      <span className="report-grid__none">
        —<span className="report-grid__why">{sameReasonAbove ? 'Unavailable, as above.' : value.limitation}</span>
      </span>
    );
  }
  return <ValueLine value={value} context={context} />;
}

/** A table cell holding nothing but one value. */
function GridCell(props: { value: CitedValue; context: ValueContext; sameReasonAbove?: boolean }) {
  return (
    <td>
      <GridValue {...props} />
    </td>
  );
}

function SalesGrid({ grid, context }: { grid: ComparablesGrid; context: ValueContext }) {
  const chunks = chunkColumns(grid.columns.length, context.mode === 'print' ? PRINT_COMPS_PER_TABLE : grid.columns.length);
  return (
    <ReportPart prefix="report-comps" id="grid" title="Sales comparison grid" modifier>
      <p className="report-comps__note muted">
        Each comp is adjusted to the subject: + where the comp is inferior, − where it is superior. Net and gross adjustments are shown in dollars and as a percent of the
        comp’s sale price.
      </p>
      {chunks.map(({ from, to }) => (
        <GridTable key={from} grid={grid} from={from} to={to} context={context} of={chunks.length > 1 ? (to === from + 1 ? `comp ${to}` : `comps ${from + 1}–${to}`) : null} />
      ))}
      {grid.copiedAccepted.length > 0 && <CopiedAccepted grid={grid} />}
      <dl className="report-comps__reconciliation">
        <dt>Range of adjusted prices</dt>
        <dd>
          {grid.adjustedRangeCited ? (
            <>
              <ValueLine value={grid.adjustedRangeCited} context={context} /> ({rangeBasisText(grid.columns.map((column) => column.weight))})
            </>
          ) : (
            'No comp adjusted yet'
          )}
        </dd>
        <dt>Indicated value by sales comparison</dt>
        <dd data-testid="report-indicated-value">
          {grid.reconciliation.indicatedValue ? (
            <>
              <ValueLine value={grid.reconciliation.indicatedValue} context={context} />
              <span className="report-comps__whose muted"> {grid.reconciliation.indicatedValue.derivedFrom}</span>
            </>
          ) : (
            'Not entered yet'
          )}
        </dd>
        <dt>Reconciliation</dt>
        <dd className="report-comps__comment">{grid.reconciliation.comment.trim() || 'No comment yet.'}</dd>
      </dl>
    </ReportPart>
  );
}

function GridTable({ grid, from, to, of, context }: { grid: ComparablesGrid; from: number; to: number; of: string | null; context: ValueContext }) {
  const columns = grid.columns.slice(from, to);
  const summaries = columns.map((column) => grid.summary.find((summary) => summary.compId === column.compId) ?? null);
  const ids = columns.map((column) => column.compId);
  const title = `Sales comparison grid${of ? `, ${of}` : ''}`;
  return (
    <div className="report-grid">
      <table aria-label={title}>
        {/* On paper the grid is in parts: each says which comps it holds. */}
        {of && <caption className="report-grid__caption">{title}</caption>}
        <colgroup>
          <col className="report-grid__feature-col" />
          <col className="report-grid__subject-col" />
          {columns.map((column) => (
            <col key={column.compId} />
          ))}
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Feature</th>
            <th scope="col">Subject</th>
            {columns.map((column) => (
              <th scope="col" key={column.compId}>
                Comp {column.number}
                <span className="report-grid__weight">{weightText(column.weight)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {grid.rows.map((row, rowIndex) => {
            const cells = row.comps.slice(from, to);
            const above = grid.rows[rowIndex - 1]?.subject;
            const subjectAsAbove = above !== undefined && above.status === 'unavailable' && row.subject.status === 'unavailable' && above.limitation === row.subject.limitation;
            const shared = sharedUnavailableReason([row.subject, ...cells.map((cell) => cell.value)], cells.some((cell) => cell.adjustment !== null));
            return (
              <tr key={row.key} data-row={row.key}>
                <th scope="row">{row.label}</th>
                {shared !== null ? (
                  <td colSpan={1 + cells.length} className="report-grid__shared muted">
                    — {shared} (the subject and {cells.length === 1 ? 'the comp' : 'every comp'})
                  </td>
                ) : (
                  <>
                    <GridCell value={row.subject} context={context} sameReasonAbove={subjectAsAbove} />
                    {cells.map((cell, index) => (
                      <td key={columns[index]?.compId ?? index}>
                        <GridValue value={cell.value} context={context} />
                        {cell.adjustment !== null && (
                          <span className="report-grid__adjustment">
                            <span className="report-grid__amount">{cell.cited ? <ValueLine value={cell.cited} context={context} /> : formatAdjustment(cell.adjustment)}</span>
                            {cell.working && <span className="report-grid__working">{cell.working}</span>}
                          </span>
                        )}
                      </td>
                    ))}
                  </>
                )}
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <SummaryRow label="Net adjustment" ids={ids} summaries={summaries} text={(summary) => <FigureAndPercent figure={summary.cited.net} percent={summary.cited.netPct} context={context} />} />
          <SummaryRow label="Gross adjustment" ids={ids} summaries={summaries} text={(summary) => <FigureAndPercent figure={summary.cited.gross} percent={summary.cited.grossPct} context={context} />} />
          <SummaryRow label="Adjusted sale price" className="report-grid__adjusted" ids={ids} summaries={summaries} text={(summary) => <ValueLine value={summary.cited.adjustedPrice} context={context} />} />
          {summaries.some((summary) => (summary?.warnings.length ?? 0) > 0) && (
            <SummaryRow label="Not adjusted" cellClass="report-grid__warnings" ids={ids} summaries={summaries} text={(summary) => summary.warnings.join(' ') || '—'} />
          )}
        </tfoot>
      </table>
    </div>
  );
}

type GridSummary = ComparablesGrid['summary'][number];

/** A dollar figure and its percent of the sale price, each with its markers: "+$12,000 Derived [4] (0.9 % Derived [4][9])". */
function FigureAndPercent({ figure, percent, context }: { figure: CitedValue; percent: CitedValue; context: ValueContext }) {
  return (
    <>
      <ValueLine value={figure} context={context} />
      {percent.status !== 'unavailable' && (
        <span className="report-grid__percent">
          (<ValueLine value={percent} context={context} /> of the price)
        </span>
      )}
    </>
  );
}

/** The copied values the appraiser accepted to drive adjustments: which row, for what, by whom and why. */
function CopiedAccepted({ grid }: { grid: ComparablesGrid }) {
  return (
    <div className="report-comps__accepted">
      <p className="report-comps__accepted-title">Copied values accepted by the appraiser (they drive the adjustments of their rows)</p>
      <ReportTableFrame label="Copied values accepted by the appraiser" columns={['Feature', 'Accepted for', 'By', 'Reason', 'When']}>
        {grid.copiedAccepted.map((act) => (
          <tr key={`${act.row}-${act.compId ?? 'grid'}`}>
            <th scope="row">{act.rowLabel}</th>
            <td>{act.appliesTo}</td>
            <td>{act.by}</td>
            <td>{act.reason}</td>
            <td className="report-nowrap">{formatDateTime(act.at)}</td>
          </tr>
        ))}
      </ReportTableFrame>
    </div>
  );
}

/** A row beneath the grid: one figure per comp column, a dash where a comp has none. */
function SummaryRow(props: { label: string; className?: string; cellClass?: string; ids: Array<string | undefined>; summaries: Array<GridSummary | null>; text: (summary: GridSummary) => ReactNode }) {
  return (
    <tr className={props.className}>
      <th scope="row">{props.label}</th>
      <td className="muted">—</td>
      {props.summaries.map((summary, index) => (
        <td key={props.ids[index] ?? index} className={props.cellClass ?? 'report-grid__total'}>
          {summary ? props.text(summary) : '—'}
        </td>
      ))}
    </tr>
  );
}

// ---------------------------------------------------------------------------------------------
// Rates, and the regression behind them

function RatesTable({ grid, context }: { grid: ComparablesGrid; context: ValueContext }) {
  return (
    <ReportPart prefix="report-comps" id="rates" title="Adjustment rates and their support">
      <ReportTableFrame label="Adjustment rates" columns={['Feature', 'Rate used', 'Set by', 'Regression’s suggestion (95 % CI)']}>
        {grid.rates.map((rate) => (
          <tr key={rate.key}>
            <th scope="row">{rate.label}</th>
            <td>{rate.cited ? <ValueLine value={rate.cited} context={context} /> : rate.value === null ? 'No adjustment' : rateText(rate.key, rate.value)}</td>
            <td>{rateSetBy(rate)}</td>
            <td>
              {rate.support ? rateWithInterval(rate.key, rate.support) : 'Not estimated'}
              {rate.support && rate.standing && !rate.standing.supported && (
                <p className="report-comps__standing">Not supported: {rate.standing.reasons.join(' ')}</p>
              )}
              {rate.unsupportedReason && (
                <p className="report-comps__unsupported-reason" data-testid={`report-rate-reason-${rate.key}`}>
                  Used although not supported. The appraiser’s reason: “{rate.unsupportedReason.reason}”
                </p>
              )}
            </td>
          </tr>
        ))}
      </ReportTableFrame>
    </ReportPart>
  );
}

/** A statistic with grouping and a true minus sign ("−167,642.79"). */
const decimals = (value: number | null, digits: number): string => (value === null ? '—' : formatFixed(value, digits));

function RegressionView({ support, unaddressed, context }: { support: NonNullable<ComparablesSection['support']>; unaddressed: ReadonlySet<string>; context: ValueContext }) {
  const groups = excludedGroups(support.excluded, unaddressed);
  return (
    <ReportPart prefix="report-comps" id="regression" title="Regression behind the suggested rates">
      <p className="report-comps__method">{support.method}</p>
      {support.message && <p className="report-comps__message">{support.message}</p>}
      <dl className="report-comps__facts">
        <dt>Sales used</dt>
        <dd>{support.figures ? <ValueLine value={support.figures.n} context={context} /> : support.n}</dd>
        <dt>R²</dt>
        <dd>{support.figures ? <ValueLine value={support.figures.r2} context={context} /> : formatR2(support.r2)}</dd>
        <dt>Adjusted R²</dt>
        <dd>{formatR2(support.adjustedR2)}</dd>
      </dl>
      {support.predictors.length > 0 && (
        <ReportTableFrame label="Regression coefficients" className="report-comps__coefficients" columns={['Predictor', numeric('Coefficient'), numeric('Std. error'), 'Suggested rate', '95 % CI', 'Support']}>
          {support.predictors.map((key) => {
            const suggestion = support.suggestions[key];
            const figure = support.figures?.rates[key];
            return (
              <tr key={key}>
                <th scope="row">{rateLabels[key].label}</th>
                <td className="report-num">{decimals(suggestion.coefficient, 2)}</td>
                <td className="report-num">{decimals(suggestion.stdError, 2)}</td>
                <td>
                  {figure ? <ValueLine value={figure.value} context={context} /> : suggestion.value === null ? (suggestion.why ?? 'Not estimated') : rateWithInterval(key, { ...suggestion, value: suggestion.value })}
                </td>
                <td>{figure ? <ValueLine value={figure.interval} context={context} /> : '—'}</td>
                <td data-testid={`report-standing-${key}`}>
                  {suggestion.standing.supported ? 'Supported' : `Not supported: ${suggestion.standing.reasons.join(' ')}`}
                  <span className="muted"> Expected sign: {suggestion.standing.expectedSign}.</span>
                </td>
              </tr>
            );
          })}
        </ReportTableFrame>
      )}
      {support.salesUsed.length > 0 && (
        <ReportTableFrame label="Sales the regression used" caption="Sales the regression used" columns={['Address', 'Sale date', numeric('Price'), 'Sources']}>
          {support.salesUsed.map((sale) => (
            <tr key={sale.id}>
              <td>{sale.address}</td>
              <td className="report-nowrap">{sale.saleDate === null ? 'No sale date' : formatDay(sale.saleDate)}</td>
              <td className="report-num">{formatPublishedDollars(sale.priceDollars)}</td>
              <td>
                <Markers citationIds={sale.citationIds} context={context} />
              </td>
            </tr>
          ))}
        </ReportTableFrame>
      )}
      {groups.length > 0 && (
        <div className="report-comps__excluded">
          <p className="report-comps__excluded-title">Sales of the search the regression left out</p>
          <ul>
            {groups.map((group) => (
              <li key={group.why}>
                <strong>
                  {group.why} ({group.count})
                </strong>
                : <span className="report-comps__addresses">{excludedWords(group)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </ReportPart>
  );
}

// ---------------------------------------------------------------------------------------------
// Analyzed, not used

const NOT_USED_BY: Record<NotUsedRow['by'], string> = { plat: 'screened out by Plat', appraiser: 'appraiser', not_chosen: 'no reason given' };

function NotUsedTable({ rows, empty, takenIn, context }: { rows: NotUsedRow[]; empty: string; takenIn: ComparablesSection['takenIn']; context: ValueContext }) {
  return (
    <ReportPart prefix="report-comps" id="not-used" title="Sales analyzed and not used" modifier>
      {takenIn.length > 0 && (
        <ul className="report-comps__taken-in" aria-label="Screened sales taken in by the appraiser">
          {takenIn.map((entry) => (
            <li key={entry.id}>
              <strong>{entry.label}</strong>: {entry.words}
            </li>
          ))}
        </ul>
      )}
      {rows.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ReportTableFrame label="Sales analyzed and not used" columns={['Address', 'Sale date', 'Price', 'From the subject', 'Why not used']}>
          {rows.map((row) => (
            <tr key={row.id}>
              <td>
                {row.address.status === 'unavailable' ? (
                  // No published address: the sale is named by its record, as Plat lists it.
                  <span className="report-grid__none" title={row.address.limitation ?? undefined}>
                    {row.label}
                  </span>
                ) : (
                  <GridValue value={row.address} context={context} />
                )}
              </td>
              <GridCell value={row.saleDate} context={context} />
              <GridCell value={row.price} context={context} />
              <GridCell value={row.distance} context={context} />
              <td>
                <strong>{row.reasonLabel}</strong>
                {row.by !== 'not_chosen' && <span className="report-comps__by"> ({NOT_USED_BY[row.by]})</span>}
                {row.note && row.by !== 'not_chosen' && <span className="report-comps__reason-note">{row.note}</span>}
                {row.relatedLots.length > 0 && (
                  <span className="report-comps__reason-note">
                    One deed with:{' '}
                    {row.relatedLots.map((lot, at) => (
                      <span key={lot.words}>
                        {at > 0 ? '; ' : ''}
                        {lot.words}
                        <Markers citationIds={lot.citationIds} context={context} />
                      </span>
                    ))}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </ReportTableFrame>
      )}
    </ReportPart>
  );
}


/**
 * Who set a rate. An accepted suggestion the sales no longer give (the search was re-run, or the
 * rate edited outside the view) is not claimed as the regression's: it says what happened.
 */
function rateSetBy(rate: { source: 'appraiser' | 'suggestion' | null; value: number | null; support: { value: number } | null; unsupportedReason: { reason: string } | null }): string {
  if (rate.source === 'appraiser') return 'Appraiser';
  if (rate.source !== 'suggestion') return '—';
  if (rate.unsupportedReason !== null && rate.support !== null && rate.support.value === rate.value) return 'Regression’s suggestion, used by the appraiser although not supported';
  return rate.support !== null && rate.support.value === rate.value ? 'Regression’s suggestion, accepted' : 'Accepted from an earlier regression (the sales now suggest another rate)';
}
