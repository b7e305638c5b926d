// Market conditions in the Comparables view: the 1004MC-shaped table for the search's market area
// (each figure derived and cited; a count opens the sales it counts, each cited), the trend by its
// rule, what the records cannot say, the sales left out, then the time adjustment's support: the
// window, the fitted rate with its interval, the conclusion, and the appraiser's act (accept the rate
// as the time adjustment, or decline it with a reason). The price-trend chart sits beside its table.
// Everything shown comes from the one market analysis (shared/market/analysis.ts).
import { useMemo, useState } from 'react';
import type { IpcResponse } from '../../../shared/ipc.ts';
import type { ComparablesWorkfile, LonLat } from '../../../shared/comparables/model.ts';
import { searchRadiusMiles } from '../../../shared/comparables/search.ts';
import type { MarketAnalysis } from '../../../shared/market/analysis.ts';
import { MARKET_SEARCH_MONTHS, marketRequestBody, marketSearchCriteria } from '../../../shared/market/analysis.ts';
import { priceTrendChart } from '../../../shared/market/charts.ts';
import type { MarketPeriod } from '../../../shared/market/conditions.ts';
import { acceptTimeTrend, declineTimeTrend, setTrendWindow, timeRateSupportText } from '../../../shared/market/decision.ts';
import { marketSalesCsv } from '../../../shared/market/market-csv.ts';
import { TREND_WINDOWS, type TrendWindow } from '../../../shared/market/trend.ts';
import { formatDay } from '../../../shared/format-date.ts';
import { formatDollars } from '../../../shared/money.ts';
import type { ServiceRequestParts } from '../../platform/service-calls.ts';
import { useColorScheme } from '../../platform/use-color-scheme.ts';
import { ChartFigure } from '../../components/charts/ChartFigure.tsx';
import { downloadTextFile } from '../../components/download.ts';
import { CitationChips, CitedCell, type CitationIndex } from './CitedCell.tsx';
import { addPageToMarketSearch, exportFilename, searchRunOf } from './comparables-model.ts';
import { NextPageCharge, SearchCharge } from './SearchPanel.tsx';
import './market.css';

type Edit = (change: (workfile: ComparablesWorkfile) => ComparablesWorkfile) => void;

export interface MarketPanelProps {
  market: MarketAnalysis;
  workfile: ComparablesWorkfile;
  index: CitationIndex;
  edit: Edit;
  assignmentId: string;
  assignmentName: string;
  subjectRef: string;
  effectiveDate: string;
  subjectUseCode: string | null;
  subjectLonLat: LonLat | null;
}

export function MarketPanel(props: MarketPanelProps) {
  const { market } = props;
  return (
    <section className="comps-section stack gap-2" aria-labelledby="comps-market-title" data-testid="market-conditions">
      <div className="comps-section__head cluster align-baseline">
        <h2 id="comps-market-title">Market conditions</h2>
        <span className="muted">{market.source.words}</span>
        <BuyMarketSales {...props} />
      </div>
      {market.problems.map((problem) => (
        <p key={problem} className="comps-notice" role="note">
          {problem}
        </p>
      ))}
      <ConditionsTable {...props} />
      <TimeSupport {...props} />
    </section>
  );
}

/** The market-sales search: the comps search's area and type, 36 months, any size; priced first, bought once, kept with the assignment. */
function BuyMarketSales(props: MarketPanelProps) {
  const { workfile, edit } = props;
  // The market area is the comps search's as run: offered once a search has run (and priced once, not on every edit of the criteria).
  const lastRun = workfile.searches.at(-1);
  if (!lastRun) return null;
  const criteria = lastRun.criteria;
  const radiusMiles = searchRadiusMiles(criteria, props.subjectLonLat);
  let body: Record<string, unknown> | null = null;
  try {
    body = radiusMiles === null ? null : marketRequestBody(props.subjectRef, criteria, props.effectiveDate, props.subjectUseCode, props.subjectLonLat);
  } catch {
    body = null;
  }
  const parts = body ? ({ body } as ServiceRequestParts<'queryRecords'>) : null;
  const change =
    body && radiusMiles !== null
      ? (answer: IpcResponse<'queryRecords'>) => {
          const run = searchRunOf({ criteria: marketSearchCriteria(criteria), effectiveDate: props.effectiveDate, radiusMiles, body: body!, envelope: answer.envelope, ranAt: new Date().toISOString() });
          return (w: ComparablesWorkfile): ComparablesWorkfile => ({ ...w, marketSearch: run });
        }
      : null;
  return (
    <span className="market-buy cluster gap-2">
      <SearchCharge
        parts={parts}
        label={workfile.marketSearch ? 'Read the market sales again' : `Buy the market sales (${MARKET_SEARCH_MONTHS} months)`}
        what={`the market area’s sales of the type over ${MARKET_SEARCH_MONTHS} months`}
        primary={false}
        change={change}
        edit={edit}
        assignmentId={props.assignmentId}
      />
      <NextMarketPage {...props} />
    </span>
  );
}

/** The market-sales search's next page, when the service has more sales than were read: priced, and counted once bought. */
function NextMarketPage(props: MarketPanelProps) {
  const run = props.workfile.marketSearch;
  const cursor = props.market.source.nextCursor;
  if (!run || cursor === null) return null;
  return (
    <NextPageCharge
      run={run}
      cursor={cursor}
      label="Read the next page of market sales"
      what="the next page of the market sales"
      add={addPageToMarketSearch}
      edit={props.edit}
      assignmentId={props.assignmentId}
    />
  );
}

function ConditionsTable({ market, index }: MarketPanelProps) {
  const { conditions } = market;
  const [open, setOpen] = useState<string | null>(null);
  const opened = conditions.periods.find((period) => period.key === open) ?? null;
  return (
    <div className="stack gap-1">
      <table className="comps-table market-table" aria-label="Market conditions by period before the effective date">
        <thead>
          <tr>
            <th scope="col">Period before {formatDay(conditions.effectiveDate)}</th>
            <th scope="col" className="is-numeric">
              Sales
            </th>
            <th scope="col" className="is-numeric">
              Median sale price
            </th>
            <th scope="col" className="is-numeric">
              Median $ per sq ft (GBA)
            </th>
          </tr>
        </thead>
        <tbody>
          {conditions.periods.map((period) => (
            <tr key={period.key} className={period.covered ? undefined : 'market-table__uncovered'}>
              <th scope="row">
                {period.label}
                <span className="muted market-table__dates">
                  {' '}
                  {period.fromDate} to {period.toDate}
                  {!period.covered && ' · not fully read'}
                </span>
              </th>
              <td className="is-numeric">
                <button
                  type="button"
                  className="link-button"
                  aria-expanded={open === period.key}
                  aria-controls="market-period-sales"
                  aria-label={`${period.count.display} sales, ${period.label}: list them`}
                  onClick={() => setOpen(open === period.key ? null : period.key)}
                >
                  {period.count.display}
                </button>
              </td>
              <td className="is-numeric">
                <CitedCell value={period.medianPrice} index={index} />
              </td>
              <td className="is-numeric">
                <CitedCell value={period.medianPricePerSqft} index={index} />
              </td>
            </tr>
          ))}
          <tr className="market-table__trend">
            <th scope="row">Trend (0–6 against 7–12 months)</th>
            <td className="is-numeric">
              <CitedCell value={conditions.trend.count} index={index} />
            </td>
            <td className="is-numeric">
              <CitedCell value={conditions.trend.price} index={index} />
            </td>
            <td className="is-numeric">
              <CitedCell value={conditions.trend.pricePerSqft} index={index} />
            </td>
          </tr>
        </tbody>
      </table>
      {opened && <PeriodSales period={opened} index={index} />}
      <p className="muted market-fine">
        <strong>Trend rule.</strong> {conditions.trend.rule} <strong>Area measure.</strong> {conditions.areaMeasure}
      </p>
      {conditions.notes.map((note) => (
        <p key={note} className="comps-notice" role="note">
          {note}
        </p>
      ))}
      <p className="muted market-fine">
        <strong>Left out{conditions.leftOut.length > 0 ? ` (${conditions.leftOut.length})` : ''}:</strong>{' '}
        {conditions.leftOutCounts.length === 0 ? 'none.' : conditions.leftOutCounts.map((row) => `${row.why} ${row.count}`).join(' · ')}
      </p>
      <details className="market-fine">
        <summary>What the records cannot say ({conditions.notAvailable.length} lines of the 1004MC)</summary>
        <ul>
          {conditions.notAvailable.map((row) => (
            <li key={row.line}>
              {row.line}: {row.why}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}

function PeriodSales({ period, index }: { period: MarketPeriod; index: CitationIndex }) {
  return (
    <div id="market-period-sales" className="market-period-sales" role="region" aria-label={`Sales counted, ${period.label}`}>
      <p>
        <strong>{period.label}</strong>: {period.sales.length} sales counted{period.withoutPublishedArea > 0 && `, ${period.withoutPublishedArea} without a published area (left out of $ per sq ft)`}.
      </p>
      {period.sales.length > 0 && (
        <ul>
          {period.sales.map((sale) => (
            <li key={sale.id}>
              {sale.address} · {formatDay(sale.saleDate)} · {formatDollars(sale.priceDollars)} <CitationChips ids={sale.citationIds} index={index} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function TimeSupport({ market, workfile, edit, index, assignmentName, effectiveDate }: MarketPanelProps) {
  const { trend } = market;
  const scheme = useColorScheme();
  const chart = useMemo(() => priceTrendChart(market), [market]);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const decision = workfile.marketTrend?.decision ?? null;
  return (
    <div className="stack gap-2" data-testid="market-time-support">
      <h3 className="market-subhead">Time adjustment’s support</h3>
      <div className="cluster align-baseline" role="group" aria-label="Trend window">
        <span>Window:</span>
        {TREND_WINDOWS.map((months) => (
          <button
            key={months}
            type="button"
            className={`button button--small${trend.windowMonths === months ? ' is-selected' : ''}`}
            aria-pressed={trend.windowMonths === months}
            onClick={() => edit((w) => setTrendWindow(w, months as TrendWindow))}
          >
            {months} months
          </button>
        ))}
      </div>
      <dl className="market-fit">
        <dt>Sale price</dt>
        <dd>
          <CitedCell value={trend.price.rate} index={index} /> · 95 % interval <CitedCell value={trend.price.interval} index={index} /> · {trend.price.sales.length} sales
        </dd>
        <dt>Price per sq ft (GBA)</dt>
        <dd>
          <CitedCell value={trend.pricePerSqft.rate} index={index} /> · {trend.pricePerSqft.sales.length} sales with a published area
        </dd>
      </dl>
      <p className={trend.offer === null ? 'comps-notice' : 'market-conclusion'} role="status">
        {trend.conclusion}
      </p>
      <p className="muted market-fine">{trend.method}</p>
      <div className="cluster align-baseline">
        <button
          type="button"
          className="button button--primary"
          disabled={trend.offer === null}
          onClick={() => {
            const result = acceptTimeTrend(workfile, trend, new Date().toISOString());
            setProblem(result.problem);
            if (result.problem === null) edit(() => result.workfile);
          }}
        >
          {trend.offer === null ? 'No rate to accept' : `Accept ${trend.price.rate.display} as the time adjustment`}
        </button>
        <label className="market-reason">
          <span className="visually-hidden">Why no time adjustment</span>
          <input type="text" className="input" placeholder="Why no time adjustment (required to decline)" value={reason} onChange={(event) => setReason(event.target.value)} />
        </label>
        <button type="button" className="button" disabled={reason.trim() === ''} onClick={() => edit((w) => declineTimeTrend(w, reason, new Date().toISOString()))}>
          {trend.offer === null ? 'Record: no time adjustment' : 'Decline the rate'}
        </button>
      </div>
      {problem && (
        <p className="comps-notice" role="alert">
          {problem}
        </p>
      )}
      <p className="market-decision" data-testid="market-decision">
        {decision === null ? 'Not decided yet.' : timeRateSupportText(workfile, trend)}
      </p>
      <ChartFigure spec={chart} citations={index} scheme={scheme} />
      <div className="cluster">
        <button
          type="button"
          className="button"
          onClick={() => downloadTextFile(exportFilename(assignmentName, 'market sales', effectiveDate, 'csv'), marketSalesCsv(market), 'text/csv')}
        >
          Export the market sales CSV
        </button>
      </div>
    </div>
  );
}
