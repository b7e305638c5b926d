// An owner's own page, opened from any owner name (an entity's record or summary, an owner group):
// the name as published, every holding published under an owner name containing it (address, SSL,
// use, assessment, last sale, each cited), the names grouped where they differ only in spelling, the
// total assessed value (derived, saying over how many holdings and how many lack one), and each
// holding one click from its entity page. The search behind it is priced per page: shown free when
// already bought (here, in the Owners view or the find box), otherwise bought from its button.
import { useEffect, useRef, useState } from 'react';
import type { CallOptions } from '../../platform/service-calls.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { useUiStore } from '../../app/ui-store.ts';
import { ownerAreaFor, ownerSearchBody } from '../../components/owner-lookup.ts';
import { usePaidAnswer } from '../../platform/paid-answer.ts';
import { ownerNameKey } from '../../../shared/graph/relations.ts';
import { PortfolioResults } from './OwnerPortfolio.tsx';
import { CoverageReading } from './OwnersView.tsx';
import { useOwnerCoverage } from '../../components/owner-coverage.ts';
import './owners.css';

export function OwnerPage({ name, areaUid }: { name: string; areaUid: string | null }) {
  const titleRef = useRef<HTMLHeadingElement>(null);
  const openGraph = useUiStore((state) => state.openGraph);
  const coverage = useOwnerCoverage();
  const lastOptions = useRef<CallOptions>({});
  const [openedAt] = useState(() => Date.now());
  useEffect(() => {
    titleRef.current?.focus();
  }, [name]);

  const searchable = coverage.data?.searchable ?? [];
  const area = ownerAreaFor(searchable, areaUid);
  const search = area ? { name, areaUid: area.areaUid } : null;
  const request = search ? { body: ownerSearchBody(search.areaUid, search.name) } : null;
  const first = usePaidAnswer('searchProperties', request, { loadWhenFree: true });

  return (
    <article className="page" data-testid="owner-page">
      <header className="page__header">
        <h1 id="view-title" ref={titleRef} tabIndex={-1}>
          Owner <span className="owner-page__name">· {name}</span>
        </h1>
        <p className="muted owner-page__lead">
          The owner name as the publisher printed it{area ? ` in ${area.name}` : ''}, and every holding published under an owner name containing
          it, grouped by name.
        </p>
        <div className="owner-page__actions">
          <button type="button" className="button" onClick={() => openGraph(`owner:${area?.areaUid ?? ''}/${name}`)} title="Draw this owner, its holdings and their links">
            Open in the graph
          </button>
        </div>
      </header>
      <div className="owner-page__body stack gap-3">
        <CoverageReading coverage={coverage} />
        {coverage.data && !area && (
          <div className="notice" role="status">
            <strong>No owner names to search here.</strong>{' '}
            {areaUid === null
              ? 'The service’s coverage lists no area whose records carry owner names.'
              : `The service’s coverage does not list ${areaUid} among the areas whose records carry owner names.`}
          </div>
        )}
        {request && !first.query.data && !first.query.isFetching && !first.query.isError && (
          <div className="buy-prompt owner-page__buy">
            <p className="muted">
              The holdings come from an owner-name search, priced per page of up to 50 holdings; a search that finds nothing is free. Pages
              already bought are shown again free.
            </p>
            <ChargeButton
              operation="searchProperties"
              request={request}
              label="Find every holding"
              what={`the owner search for “${name}”`}
              busy={first.query.isFetching}
              onRun={(options) => {
                lastOptions.current = options;
                void first.buy(options);
              }}
            />
          </div>
        )}
        {search && <PortfolioResults search={search} openedAt={openedAt} lastOptions={lastOptions} pageOwnerKey={ownerNameKey(name)} />}
      </div>
    </article>
  );
}
