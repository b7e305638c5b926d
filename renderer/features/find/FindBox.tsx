// The find box: one line for whatever a person has in hand (an address, an SSL, an account number, an
// entity id, an owner's name). Before anything is spent it says what it understood and what finding
// it costs (free when Plat already holds the answer); Enter finds it through the priced button (with
// its confirmation rules), ↑/↓ move through the candidates, Enter opens one, Escape closes.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { payerFor, payerOf, type Payer, type PayerChoice } from '../../../shared/assignments/payer.ts';
import type { CallBilling, IpcResponse } from '../../../shared/ipc.ts';
import { useUiStore } from '../../app/ui-store.ts';
import { ChargeButton } from '../../components/ChargeButton.tsx';
import { CitationChip } from '../../components/CitationChip.tsx';
import { CitedValue } from '../../components/CitedValue.tsx';
import { citedFieldValue, type CitedValue as CitedValueModel } from '../../components/cited-value.ts';
import { DeliveryLine } from '../../components/DeliveryLine.tsx';
import { useEntityCaptions } from '../../components/entity-captions.ts';
import { ErrorNotice, platErrorOf } from '../../components/ErrorNotice.tsx';
import { holdingsFrom } from '../../components/owner-lookup.ts';
import { useOwnerCoverage } from '../../components/owner-coverage.ts';
import { useCostPreview, useKnownFree } from '../../platform/cost-preview.ts';
import { usePaidAnswer } from '../../platform/paid-answer.ts';
import { serviceQueryKey } from '../../platform/query-keys.ts';
import { callService, type CallOptions } from '../../platform/service-calls.ts';
import {
  FIND_MAX,
  findKindLabel,
  findKinds,
  holdingCandidates,
  readFind,
  resolutionCandidates,
  resolutionOutcome,
  type FindCandidate,
  type FindKind,
} from './find-model.ts';
import { useFindStore, type AskedFind } from './find-store.ts';
import './find.css';
import { SelectOptions } from '../../components/SelectOptions.tsx';
import { useEnterToCharge, useSettled } from '../../components/typed-search.ts';
import { nothingFoundChargeWords } from '../../components/charge-words.ts';
import { activeAssignment } from '../../components/ActiveAssignmentGate.tsx';
import { useProjects } from '../../platform/core-queries.ts';
import { callPlat } from '../../platform/plat.ts';
import { freeProjectName, usePayerStore } from '../../platform/payer-store.ts';
import { projectsQueryKey, pricingQueryScope, spendQueryKey } from '../../platform/query-keys.ts';
import { PayerDialog } from './PayerDialog.tsx';

const SETTLE_MS = 250;
/** Candidates whose owner is read from the property's record, when reading it is known to be free. */
const OWNERS_READ = 10;
/** Holdings an owner find lists (the Owners view lists them all, grouped). */
const HOLDINGS_SHOWN = 25;

/**
 * What a candidate property's own record gave: whether it was read (only when known free), and its
 * owner and address if it names them (Alexandria's records name no owner).
 */
interface CandidateRecord {
  read: boolean;
  owner: CitedValueModel | null;
  address: CitedValueModel | null;
}

type Answer<N extends 'resolveEntities' | 'searchProperties'> = IpcResponse<N>;

export function FindBox({ onClose, autoFocus = false }: { onClose?: () => void; autoFocus?: boolean }) {
  const text = useFindStore((state) => state.text);
  const chosen = useFindStore((state) => state.chosen);
  const asked = useFindStore((state) => state.asked);
  const setText = useFindStore((state) => state.setText);
  const choose = useFindStore((state) => state.choose);
  const ask = useFindStore((state) => state.ask);
  const focusTick = useFindStore((state) => state.focusTick);
  const openEntity = useUiStore((state) => state.openEntity);
  const remember = useEntityCaptions((state) => state.remember);
  const inputRef = useRef<HTMLInputElement>(null);
  const buttonHost = useRef<HTMLSpanElement>(null);
  // The candidate Enter opens, tied to the answer it belongs to: a new answer starts on its first.
  const [picked, setPicked] = useState<{ rows: readonly FindCandidate[] | null; index: number }>({ rows: null, index: 0 });
  const ids = { input: useId(), hint: useId(), list: useId(), kind: useId() };

  // Ctrl+K selects what the box still holds: typing replaces it rather than running on from it
  // ("0451 0828" then "0157 2449" must not read as one 15-digit account).
  useEffect(() => {
    if (focusTick === 0 && !autoFocus) return;
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [focusTick, autoFocus]);

  // Which areas publish owner names: asked once for the session, without a click only when known to
  // be free (the Owners view buys it otherwise).
  const coverage = useOwnerCoverage();
  const ownerAreas = coverage.data?.searchable;

  const [settled, flush] = useSettled(text, SETTLE_MS);
  const reading = useMemo(() => readFind(settled, { chosen, ownerAreas }), [settled, chosen, ownerAreas]);
  const typedReading = useMemo(() => readFind(text, { chosen, ownerAreas }), [text, chosen, ownerAreas]);
  const ready = reading.status === 'ready' ? reading : null;
  const resolveRequest = ready?.ask.operation === 'resolveEntities' ? ready.ask.request : null;
  const ownerRequest = ready?.ask.operation === 'searchProperties' ? ready.ask.request : null;
  const price = useCostPreview(ready?.ask.operation ?? 'resolveEntities', ready ? (ready.ask.request as never) : null);

  // The answers of the last find (held for the session under their request's key).
  const resolution = usePaidAnswer('resolveEntities', asked?.ask.operation === 'resolveEntities' ? asked.ask.request : null);
  const ownerSearch = usePaidAnswer('searchProperties', asked?.ask.operation === 'searchProperties' ? asked.ask.request : null);
  const answer = asked?.ask.operation === 'searchProperties' ? ownerSearch : resolution;

  const found = useMemo(() => candidatesOf(asked, resolution.query.data, ownerSearch.query.data), [asked, resolution.query.data, ownerSearch.query.data]);
  const candidates = found.rows;
  // The text has been changed since the candidates were found: they answer the earlier text.
  const current = asked !== null && ready !== null && asked.sent === ready.sent && asked.kind === ready.kind && settled === text;

  // Owners of resolved properties, from each property's record: read without a click only when a
  // record is known to cost nothing on this connection (priced by the first one read).
  const firstRecord = candidates.find((row) => row.propertyRef !== null && row.owner === null)?.propertyRef ?? null;
  const recordIsFree = useKnownFree('getEntity', firstRecord === null ? null : { path: { entity_ref: firstRecord } });
  const records = useQueries({
    queries: candidates.slice(0, OWNERS_READ).map((row) => {
      const request = { path: { entity_ref: row.propertyRef ?? '' } };
      return {
        queryKey: serviceQueryKey('getEntity', request),
        queryFn: () => callService('getEntity', request),
        enabled: recordIsFree && row.propertyRef !== null && row.owner === null && asked?.ask.operation === 'resolveEntities',
        staleTime: Infinity,
        gcTime: Infinity,
      };
    }),
  });
  const citedOf = (index: number): CandidateRecord => {
    const data = records[index]?.data?.envelope;
    if (!data || data.status === 'error' || !data.data) return { read: false, owner: null, address: null };
    const attributes = (data.data.entity.attributes ?? {}) as Record<string, unknown>;
    return { read: true, owner: citedFieldValue('owner_name', attributes.owner_name), address: citedFieldValue('address', attributes.address) };
  };

  const busy = answer.query.isFetching;
  const active = candidates.length === 0 ? -1 : picked.rows === candidates ? picked.index : 0;
  const setActive = (index: number) => setPicked({ rows: candidates, index });

  const open = (row: FindCandidate) => {
    const caption = row.address ?? row.identifier ?? '';
    remember({ [row.openId]: caption, ...(row.propertyRef ? { [row.propertyRef]: caption } : {}) });
    // The new file this find was charged to takes the property opened from it as its subject.
    if (newFile !== null && asked?.sent === newFile.sent && row.propertyRef) {
      setNewFile(null);
      void callPlat('updateAssignment', { id: newFile.projectId, details: { subjectRef: row.propertyRef, subjectLabel: caption.slice(0, 300) } }).then(() =>
        queryClient.invalidateQueries({ queryKey: projectsQueryKey }),
      );
    }
    openEntity(row.openId);
    onClose?.();
  };

  // Which file pays for the find: the active assignment when it looks up its subject; otherwise the
  // person says (that assignment, none, or a new one), before anything is charged.
  const queryClient = useQueryClient();
  const projects = useProjects();
  const remembered = usePayerStore((state) => state.remembered);
  const rememberPayer = usePayerStore((state) => state.remember);
  const newFile = useFindStore((state) => state.newFile);
  const setNewFile = useFindStore((state) => state.setNewFile);
  const [asking, setAsking] = useState<{ options: CallOptions; reading: AskedFind } | null>(null);
  const assignment = activeAssignment(projects.data);

  const buyFor = async (reading: AskedFind, options: CallOptions, payer: Payer | undefined) => {
    let projectId: string | null | undefined;
    if (payer?.kind === 'new') {
      const taken = projects.data?.projects.map((project) => project.name) ?? [];
      const project = await callPlat('createProject', { name: freeProjectName(reading.sent, taken), capMicroUsd: null });
      await callPlat('setActiveProject', { id: project.id });
      setNewFile({ projectId: project.id, sent: reading.sent });
      void queryClient.invalidateQueries({ queryKey: projectsQueryKey });
      void queryClient.invalidateQueries({ queryKey: pricingQueryScope });
      projectId = project.id;
    } else if (payer) projectId = payer.kind === 'none' ? null : payer.projectId;
    ask(reading);
    const paid = { ...options, ...(projectId !== undefined ? { projectId } : {}) };
    if (reading.ask.operation === 'resolveEntities') await resolution.buy(paid, reading.ask.request);
    else await ownerSearch.buy(paid, reading.ask.request);
    void queryClient.invalidateQueries({ queryKey: spendQueryKey });
  };

  const run = (options: CallOptions) => {
    if (!ready) return;
    // Projects not read (yet): the core books the call to the active assignment, as it always did.
    const decided = projects.data
      ? payerFor({
          lookup: ready.sent,
          activeProjectId: projects.data.activeProjectId,
          subject: assignment?.assignment ?? null,
          remembered,
          priced: price.data === undefined || (price.data.expectedCostMicroUsd !== 0 && !price.data.cached),
        })
      : undefined;
    if (decided === null) {
      setAsking({ options, reading: ready });
      return;
    }
    void buyFor(ready, options, decided);
  };

  const chosePayer = (choice: PayerChoice, rememberForSession: boolean) => {
    const pending = asking;
    setAsking(null);
    if (!pending || !projects.data?.activeProjectId) return;
    if (rememberForSession) rememberPayer(choice);
    void buyFor(pending.reading, pending.options, payerOf(choice, projects.data.activeProjectId));
  };

  const pressFind = () => buttonHost.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.click();
  const enterFinds = useEnterToCharge({ typed: text, settled, flush, request: ready, price: price.data, press: pressFind });

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const shown = current ? candidates : [];
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (shown.length === 0) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((active + step + shown.length) % shown.length);
      return;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      if (onClose) onClose();
      else if (text !== '') setText('');
      else inputRef.current?.blur();
      return;
    }
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const row = shown[active];
    if (row) {
      open(row);
      return;
    }
    if (typedReading.status !== 'ready') return;
    enterFinds();
  };

  const problem = typedReading.status === 'refused' ? typedReading.problem : null;
  const listShown = answer.query.data !== undefined && !answer.query.isError && candidates.length > 0;
  const shownKind = typedReading.status === 'ready' || typedReading.status === 'refused' ? typedReading.kind : null;

  return (
    <div className={`find stack${onClose ? ' find--palette' : ''}`} role="search" aria-label="Find a property">
      <div className="find__line">
        <label htmlFor={ids.input} className="find__label">
          Find
        </label>
        <input
          id={ids.input}
          ref={inputRef}
          className="input find__input"
          type="text"
          // Only elements on the page may be named: the list and its announcement exist once a find has candidates.
          aria-controls={listShown ? ids.list : undefined}
          aria-describedby={listShown ? `${ids.hint} ${ids.list}-active` : ids.hint}
          aria-invalid={problem !== null}
          value={text}
          maxLength={FIND_MAX * 40}
          placeholder="Address, SSL, account number, entity id or owner name"
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <span className="find__action" ref={buttonHost}>
          {ready?.ask.operation === 'searchProperties' ? (
            <ChargeButton operation="searchProperties" request={ownerRequest} label="Find" what={`the owner search for “${ready.sent}”`} busy={busy} onRun={run} />
          ) : (
            <ChargeButton
              operation="resolveEntities"
              request={resolveRequest}
              label="Find"
              what={ready ? `finding the ${findKindLabel[ready.kind]} “${ready.sent}”` : 'this find'}
              busy={busy}
              onRun={run}
            />
          )}
        </span>
      </div>

      <div className="find__reading" id={ids.hint} aria-live="polite">
        {problem ? (
          <p className="find__problem" role="alert">
            {problem}
          </p>
        ) : typedReading.status === 'empty' ? (
          <p className="muted">
            Type what you have: <span className="mono">1708 21st St NW</span>, <span className="mono">0065 0007</span>, an Alexandria account
            number, an entity id or an owner’s name. Enter finds it; the price is shown first.
          </p>
        ) : typedReading.status === 'ready' ? (
          <p className="find__understood" data-testid="find-understood">
            Understood as <strong className="find__kind">{findKindLabel[typedReading.kind]}</strong>
            {!typedReading.detected && <span className="muted"> (chosen)</span>}: <span className="mono find__sent">{typedReading.sent}</span>
            {typedReading.area && <span className="muted"> · {typedReading.area.name}</span>}
            {typedReading.note && <span className="muted"> · {typedReading.note}</span>}
          </p>
        ) : null}
        {shownKind !== null && (
          <label className="find__choose">
            <span className="muted">Read as</span>{' '}
            <select
              id={ids.kind}
              className="input input--compact"
              value={chosen ?? shownKind}
              onChange={(event) => choose(event.target.value as FindKind)}
            >
              <SelectOptions items={findKinds} label={(kind) => findKindLabel[kind]} />
            </select>
          </label>
        )}
      </div>

      {asking && assignment?.assignment && (
        <PayerDialog
          open
          lookup={asking.reading.sent}
          assignmentName={assignment.name}
          subjectLabel={assignment.assignment.subjectLabel}
          onChoose={chosePayer}
          onCancel={() => setAsking(null)}
        />
      )}
      {asked && (
        <FindResults
          asked={asked}
          current={current}
          found={found}
          answer={answer}
          listId={ids.list}
          active={current ? active : -1}
          onActive={setActive}
          onOpen={open}
          citedOf={citedOf}
        />
      )}
    </div>
  );
}

interface Found {
  rows: FindCandidate[];
  /** Candidates the service has in all, and how many this answer carries (fewer for a building's many units). */
  total: number;
  received: number;
  /** The service's reason when it found nothing or refused the text. */
  reason: string | null;
  outcome: string | null;
}

function candidatesOf(asked: AskedFind | null, resolved: Answer<'resolveEntities'> | undefined, owners: Answer<'searchProperties'> | undefined): Found {
  const none: Found = { rows: [], total: 0, received: 0, reason: null, outcome: null };
  if (!asked) return none;
  if (asked.ask.operation === 'resolveEntities') {
    const envelope = resolved?.envelope;
    if (!envelope || envelope.status === 'error' || !envelope.data) return none;
    const result = envelope.data.items[0];
    const outcome = resolutionOutcome(result);
    return { rows: result ? resolutionCandidates(result) : [], total: outcome.total, received: outcome.found, reason: outcome.reason, outcome: outcome.outcome };
  }
  const envelope = owners?.envelope;
  if (!envelope || envelope.status === 'error' || !envelope.data) return none;
  const holdings = holdingsFrom(envelope.data.items as Parameters<typeof holdingsFrom>[0]);
  const matched = (envelope.data as { properties_matched?: unknown }).properties_matched;
  return {
    rows: holdingCandidates(holdings.slice(0, HOLDINGS_SHOWN)),
    total: typeof matched === 'number' ? matched : holdings.length,
    received: Math.min(holdings.length, HOLDINGS_SHOWN),
    reason: null,
    outcome: 'ok',
  };
}

/** What a find that matched nothing cost, from that call's own charge: never assumed free. */
function nothingFoundCharge(billing: Pick<CallBilling, 'chargedMicroUsd' | 'cacheHit'>, notSent: boolean): string {
  if (notSent && billing.chargedMicroUsd === 0 && !billing.cacheHit) return 'It was not sent as a search, and nothing was charged.';
  return nothingFoundChargeWords(billing, 'the lookup') ?? '';
}

function FindResults(props: {
  asked: AskedFind;
  current: boolean;
  found: Found;
  answer: { query: { data: Answer<'resolveEntities'> | Answer<'searchProperties'> | undefined; isError: boolean; error: unknown; isFetching: boolean; dataUpdatedAt: number }; retry: () => void; shownAgain: boolean };
  listId: string;
  active: number;
  onActive: (index: number) => void;
  onOpen: (row: FindCandidate) => void;
  citedOf: (index: number) => CandidateRecord;
}) {
  const { asked, found, answer } = props;
  const what = `${findKindLabel[asked.kind]} “${asked.sent}”`;
  if (answer.query.isError) {
    if (platErrorOf(answer.query.error).code === 'not_found') {
      return (
        <p className="notice find__none" role="status" data-testid="find-none">
          <strong>Nothing matches the {what}.</strong> {nothingFoundChargeWords(platErrorOf(answer.query.error), 'the lookup') ?? 'The service answered “not found”.'}
        </p>
      );
    }
    return <ErrorNotice error={answer.query.error} onRetry={answer.retry} />;
  }
  if (!answer.query.data) {
    return answer.query.isFetching ? (
      <p className="muted" role="status">
        Finding the {what}…
      </p>
    ) : null;
  }
  const rows = found.rows;
  return (
    <section className="find__results stack" aria-label={`Candidates for the ${what}`} data-testid="find-results">
      <div className="find__results-head">
        <p className="find__count" role="status">
          {rows.length === 0 ? (
            <>
              <strong>Nothing matches the {what}.</strong> {found.reason ? `${found.reason} ` : ''}
              {nothingFoundCharge(answer.query.data.billing, found.outcome === 'invalid_input')}
            </>
          ) : (
            <>
              <strong>{rows.length}</strong> {rows.length === 1 ? 'candidate' : 'candidates'} for the {what}
              {found.total > found.received && (
                <> ({found.received} of the {found.total} the service has: the Search view’s Resolve tab and the Owners view list them all)</>
              )}
              .
              {!props.current && <span className="find__stale"> These answer the earlier text; Enter finds what is typed now.</span>}
            </>
          )}
        </p>
        <DeliveryLine billing={answer.query.data.billing} shownAgain={answer.shownAgain} testId="find-delivery" />
      </div>
      {rows.length > 0 && (
        <ul className="find__list" id={props.listId} aria-label={`Candidates for the ${what}`}>
          {rows.map((row, index) => {
            const cited = props.citedOf(index);
            const holding = row.holding;
            const addressCitation = holding?.address?.citation ?? cited.address?.citation ?? null;
            return (
              <li
                key={row.key}
                className="find__option"
                data-active={index === props.active}
                aria-current={index === props.active ? 'true' : undefined}
                onMouseEnter={() => props.onActive(index)}
              >
                <span className="find__option-kind">{row.kinds.join(' · ')}</span>
                <span className="find__option-address">
                  <button type="button" className="link-button" onClick={() => props.onOpen(row)} title={`Open the ${row.kinds[0] ?? 'property'}`}>
                    {row.address ?? row.identifier ?? row.openId}
                  </button>
                  {addressCitation && <CitationChip citation={addressCitation} />}
                </span>
                <span className="find__option-id mono">{row.identifier ?? ''}</span>
                <span className="find__option-owner">
                  {(holding?.owner ?? cited.owner) ? (
                    <OwnerOf owner={(holding?.owner ?? cited.owner) as CitedValueModel} areaUid={props.asked.area?.areaUid ?? null} />
                  ) : (
                    <span className="muted">{!row.propertyRef ? 'several properties' : cited.read ? 'its record names no owner' : 'owner not read'}</span>
                  )}
                </span>
                <span className="find__option-open" aria-hidden="true">
                  Enter opens
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <p className="visually-hidden" id={`${props.listId}-active`} aria-live="polite">
        {props.active >= 0 && rows[props.active]
          ? `Candidate ${props.active + 1} of ${rows.length}: ${rows[props.active]?.kinds.join(', ')}, ${rows[props.active]?.address ?? rows[props.active]?.identifier ?? ''}. Enter opens it.`
          : ''}
      </p>
    </section>
  );
}

/** An owner as published, cited, with its holdings one click away (the owner's page). */
function OwnerOf({ owner, areaUid }: { owner: CitedValueModel; areaUid: string | null }) {
  const openOwner = useUiStore((state) => state.openOwner);
  const name = typeof owner.value === 'string' ? owner.value.trim() : '';
  return (
    <>
      <CitedValue value={owner} />
      {name !== '' && (
        <button type="button" className="link-button find__owner-link" onClick={() => openOwner(name, areaUid)} title={`Every holding of ${name}`}>
          holdings
        </button>
      )}
    </>
  );
}
