// The market conditions in the report's comparables section, on screen and on paper: the 1004MC-shaped
// table (each figure with its endnote markers), the trend by its rule, what the records cannot say,
// the sales left out, the time adjustment's support with the appraiser's act, and the price-trend
// chart (vector SVG, alt text) with its table. Drawn from the section's data only.
import type { MarketReport } from '../../../shared/report/market-document.ts';
import { ReportChart } from './ReportChart.tsx';
import { ValueLine, type ValueContext } from './ReportValues.tsx';
import { ReportPart } from './ReportSectionFrame.tsx';
import { numeric, ReportTableFrame } from './ReportTableFrame.tsx';
import './market-report.css';

export function MarketReportPart({ market, context }: { market: MarketReport; context: ValueContext }) {
  return (
    <ReportPart prefix="report-comps" id="market" title={market.title} modifier>
      <p className="report-comps__note">
        {market.salesRead} {market.propertyType ? `Property type: ${market.propertyType}.` : ''}
      </p>
      <ReportTableFrame
        className="report-market"
        label="Market conditions by period before the effective date"
        columns={['Period', numeric('Sales'), numeric('Median sale price'), numeric('Median $ per sq ft (GBA)')]}
      >
        {market.periods.map((period) => (
          <tr key={period.key}>
            <th scope="row">
              {period.label} ({period.fromDate} to {period.toDate}){period.covered ? '' : ' — not fully read'}
            </th>
            <td className="report-num">
              <ValueLine value={period.count} context={context} />
            </td>
            <td className="report-num">
              <ValueLine value={period.medianPrice} context={context} />
            </td>
            <td className="report-num">
              <ValueLine value={period.medianPricePerSqft} context={context} />
            </td>
          </tr>
        ))}
        <tr>
          <th scope="row">Trend</th>
          <td className="report-num">
            <ValueLine value={market.trend.count} context={context} />
          </td>
          <td className="report-num">
            <ValueLine value={market.trend.price} context={context} />
          </td>
          <td className="report-num">
            <ValueLine value={market.trend.pricePerSqft} context={context} />
          </td>
        </tr>
      </ReportTableFrame>
      <p className="report-comps__note">Trend rule: {market.trend.rule}</p>
      <p className="report-comps__note">Area measure: {market.areaMeasure}</p>
      {market.leftOutCounts.length > 0 && <p className="report-comps__note">Left out: {market.leftOutCounts.map((row) => `${row.why} ${row.count}`).join('; ')}.</p>}
      <ul className="report-section__limitations" aria-label="What the records cannot say">
        {market.notAvailable.map((row) => (
          <li key={row.line} className="report-limitation">
            {row.line}: {row.why}
          </li>
        ))}
        {market.notes.map((note) => (
          <li key={note} className="report-limitation">
            {note}
          </li>
        ))}
      </ul>
      <h4 className="report-comps__subhead">Time adjustment’s support ({market.time.windowMonths} months)</h4>
      <dl className="report-comps__facts">
        <dt>Sale price trend</dt>
        <dd>
          <ValueLine value={market.time.rate} context={context} /> (95 % interval <ValueLine value={market.time.interval} context={context} />), {market.time.salesCount} sales; at least {market.time.minimumSales} needed
        </dd>
        <dt>Price per sq ft trend</dt>
        <dd>
          <ValueLine value={market.time.perSqftRate} context={context} />
        </dd>
        <dt>Conclusion</dt>
        <dd>{market.time.conclusion}</dd>
        <dt>The appraiser</dt>
        <dd>{market.time.decision}</dd>
      </dl>
      <p className="report-comps__note">Method: {market.time.method}</p>
      <ReportChart spec={market.chart} context={context} />
    </ReportPart>
  );
}
