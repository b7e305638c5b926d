// The entity summary (v4, $0.10): one best value per canonical field with its citation and the
// alternatives beside it. Bought only from the button (price first, confirmation at the threshold);
// afterwards it stays in the session's query cache, and the page says that showing it again is free.
import { useId, useMemo } from 'react';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { canSummarise, summaryView, type SummaryView } from './entity-model.ts';
import { envelopeData } from '../../components/service-data.ts';
import { usePaidAnswer } from '../../platform/paid-answer.ts';
import { DeliveryLine } from '../../components/DeliveryLine.tsx';
import { FieldTable } from './FieldTable.tsx';
import { useUiStore } from '../../app/ui-store.ts';
import type { SummaryUseOf } from '../../app/entity-slots.ts';

/** assignmentUse: which value the active assignment uses instead of a best value, on its subject's page. */
export function SummarySection({ entityId, areaUid, assignmentUse }: { entityId: string; areaUid: string | null; assignmentUse?: SummaryUseOf }) {
  const openOwner = useUiStore((state) => state.openOwner);
  const headingId = useId();
  const request = canSummarise(entityId) ? { path: { q_id: entityId } } : null;
  const { query, buy, retry, shownAgain } = usePaidAnswer('getEntitySummary', request, { loadWhenFree: true });

  const view = useMemo((): { ok: SummaryView } | { error: unknown } | null => {
    if (!query.data) return null;
    try {
      return { ok: summaryView(envelopeData(query.data.envelope)) };
    } catch (error) {
      return { error };
    }
  }, [query.data]);

  return (
    <section className="entity-section stack" aria-labelledby={headingId} data-testid="entity-summary">
      <header className="entity-section__header">
        <h2 id={headingId}>Summary</h2>
        <span className="muted entity-section__source">best value per field, with alternatives · v4</span>
      </header>
      {request === null ? (
        <p className="muted">The summary operation takes entity ids of the form prefix_uuid (parcel, account, unit, address, property, loan); this id is not one.</p>
      ) : !query.data ? (
        <div className="buy-prompt">
          <p className="muted">
            One best value per canonical field (owner, address, use, year built, rooms, areas, assessed value, last sale), each cited, with
            every other value a source gave beside it.
          </p>
          <ChargeButton
            operation="getEntitySummary"
            request={request}
            label="Buy the summary"
            what="the entity summary"
            busy={query.isFetching}
            onRun={buy}
          />
        </div>
      ) : null}
      {query.isError && <ErrorNotice error={query.error} onRetry={retry} />}
      {query.data && <DeliveryLine billing={query.data.billing} shownAgain={shownAgain} testId="summary-delivery" />}
      {view && 'error' in view && <ErrorNotice error={view.error} />}
      {view && 'ok' in view && (
        <>
          <FieldTable
            label="Entity summary"
            rows={view.ok.rows}
            empty="The service returned no fields for this entity."
            onOwner={(name) => openOwner(name, areaUid)}
            assignmentUse={assignmentUse}
          />
          {view.ok.limitations.length > 0 && <Limitations items={view.ok.limitations} />}
        </>
      )}
    </section>
  );
}

export function Limitations({ items }: { items: string[] }) {
  return (
    <div className="entity-limitations">
      <h3>Not in the data</h3>
      <ul>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}
