// The owner page's portfolio in brief (holdings, assessed by use, the span of last sales) and its CSV:
// both read from shared/graph/portfolio-export.ts, over the holdings holdings.ts made.
import type { Citation } from '../../../shared/cited/value.ts';
import { safeFilename } from '../../../shared/filename.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { formatUsd } from '../../../shared/money.ts';
import type { PortfolioHolding, PortfolioOwner } from '../../../shared/graph/portfolio.ts';
import { portfolioCsv, portfolioSummary } from '../../../shared/graph/portfolio-export.ts';
import { downloadTextFile } from '../../components/download.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export function PortfolioSummary({ name, holdings, owners, citations, partial }: { name: string; holdings: readonly PortfolioHolding[]; owners: readonly PortfolioOwner[]; citations: readonly Citation[]; partial: boolean }) {
  const summary = portfolioSummary(holdings);
  const { lastSales } = summary;
  const exportCsv = () => downloadTextFile(safeFilename(`portfolio ${name} – ${formatDateTime(new Date()).slice(0, 10)}.csv`), portfolioCsv(owners, citations), 'text/csv;charset=utf-8');
  return (
    <section className="owners__portfolio-summary stack gap-1" aria-labelledby="portfolio-summary-heading" data-testid="portfolio-summary">
      <h2 id="portfolio-summary-heading">Portfolio in brief{partial ? ' (loaded pages only)' : ''}</h2>
      <p>
        {plural(summary.holdings, 'holding')} (each a parcel).{' '}
        {lastSales.dated > 0
          ? `Last sales recorded from ${lastSales.earliest ?? ''} to ${lastSales.latest ?? ''} (${plural(lastSales.dated, 'holding')}); ${plural(lastSales.undated, 'holding')} with no last sale date in the answers.`
          : 'No holding has a last sale date in the answers.'}
      </p>
      <table className="data-table owners__by-use">
        <caption className="visually-hidden">Holdings and assessed value by use</caption>
        <thead>
          <tr>
            <th scope="col">Use code</th>
            <th scope="col">Holdings</th>
            <th scope="col">Assessed (their own rows)</th>
          </tr>
        </thead>
        <tbody>
          {summary.byUse.map((line) => (
            <tr key={line.use ?? ''}>
              <th scope="row">{line.use ?? 'Not published'}</th>
              <td>{line.holdings.toLocaleString('en-US')}</td>
              <td>
                {formatUsd(line.assessed, { precision: 0 })}
                {line.unassessed > 0 && <span className="muted"> ({plural(line.unassessed, 'holding')} without a value of its own)</span>}
              </td>
            </tr>
          ))}
          {summary.otherUses && (
            <tr>
              <th scope="row">{plural(summary.otherUses.uses, 'other use')}</th>
              <td>{summary.otherUses.holdings.toLocaleString('en-US')}</td>
              <td>
                {formatUsd(summary.otherUses.assessed, { precision: 0 })}
                {summary.otherUses.unassessed > 0 && <span className="muted"> ({plural(summary.otherUses.unassessed, 'holding')} without a value of its own)</span>}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <p>
        <button type="button" className="button button--small" onClick={exportCsv}>
          Export the portfolio (CSV, with citations)
        </button>
      </p>
    </section>
  );
}
