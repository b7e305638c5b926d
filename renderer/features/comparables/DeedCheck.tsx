// A sale's other lots beyond the answer: the search returned only the sales it asked for (the
// subject's use code, within the radius), so a deed's parking space or vacant lot may be missing.
// For the sale in focus, a record search of DC's sales by its recordation date and price (the field
// names from the service's catalog), its price shown before the click, bought once and kept with the
// assignment: the screening then names every lot of the deed, cited, on screen and in the report.
import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ComparableSale } from '../../../shared/comparables/model.ts';
import { LOT_CHECK_JURISDICTION, LOT_CHECK_KIND, lotCheckQuery } from '../../../shared/comparables/lot-check.ts';
import { relatedLotWords } from '../../../shared/comparables/screening.ts';
import { recordFieldMap } from '../../../shared/service/record-fields.ts';
import { formatDay } from '../../../shared/format-date.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { ErrorNotice, platErrorOf } from '../../components/ErrorNotice.tsx';
import { nothingFoundChargeWords } from '../../components/charge-words.ts';
import { refreshComparables } from '../../platform/comparables-queries.ts';
import { usePaidAnswer } from '../../platform/paid-answer.ts';
import { useSourceCatalog } from '../../platform/source-catalog.ts';
import { CitationChips, type CitationIndex } from './CitedCell.tsx';

export function DeedCheck({ assignmentId, sale, index }: { assignmentId: string; sale: ComparableSale | null; index: CitationIndex }) {
  const queryClient = useQueryClient();
  const catalog = useSourceCatalog(LOT_CHECK_JURISDICTION);
  const map = useMemo(() => (catalog.query.isSuccess ? recordFieldMap(catalog.items, LOT_CHECK_KIND) : null), [catalog.query.isSuccess, catalog.items]);
  const planned = sale !== null && map !== null ? lotCheckQuery(sale, map) : null;
  const parts = planned?.query ? { query: planned.query } : null;
  const paid = usePaidAnswer('searchRecords', sale?.lotsChecked ? null : parts, { askCore: true });
  if (sale === null || sale.saleDate === null || sale.priceDollars <= 0) return null;
  const deed = `${formatDay(sale.saleDate)}, ${sale.values.salePrice.display}`;
  const error = paid.query.error;
  const none = error !== null && platErrorOf(error).code === 'not_found';
  return (
    <section className="comps-deed" aria-label="Other lots of the sale’s deed" data-testid="comps-deed-check">
      <h3 className="comps-deed__title">Other lots of {sale.address}’s deed ({deed})</h3>
      {sale.lotsChecked ? (
        sale.relatedLots.length > 0 ? (
          <p>
            Recorded on {sale.relatedLots.length === 1 ? 'one other lot' : `${sale.relatedLots.length} other lots`}:{' '}
            {sale.relatedLots.map((lot, at) => (
              <span key={lot.recordRef}>
                {at > 0 ? '; ' : ''}
                {relatedLotWords(lot)}
                <CitationChips ids={lot.citationIds} index={index} />
              </span>
            ))}
          </p>
        ) : (
          <p>Checked: no other lot of DC’s sale records carries this date and price.</p>
        )
      ) : (
        <>
          <p className="muted">
            {sale.relatedLots.length > 0
              ? `This search returned ${sale.relatedLots.length === 1 ? 'one other lot' : `${sale.relatedLots.length} other lots`} of the deed; others it did not return (another property type, or beyond the radius) are not seen.`
              : 'Plat sees only the lots this search returned: another lot of the same deed of another property type, or beyond the radius, is not seen.'}{' '}
            A record search of DC’s sales by this date and price names every lot it is recorded on; it is kept with the assignment.
          </p>
          {planned?.problem && <p className="muted">{planned.problem}</p>}
          {catalog.query.isError && <ErrorNotice error={catalog.query.error} onRetry={() => void catalog.query.refetch()} compact />}
          {parts && (
            <ChargeButton
              operation="searchRecords"
              request={parts}
              label="Check the deed’s other lots"
              what="the record search"
              primary={false}
              busy={paid.query.isFetching}
              onRun={(options) => void paid.buy(options).finally(() => void refreshComparables(queryClient, assignmentId))}
            />
          )}
          {none && <p className="muted">No sale record matched. {nothingFoundChargeWords(platErrorOf(error), 'the record search')}</p>}
          {error !== null && !none && !paid.query.isFetching && <ErrorNotice error={error} onRetry={() => void paid.retry().finally(() => void refreshComparables(queryClient, assignmentId))} compact />}
        </>
      )}
    </section>
  );
}
