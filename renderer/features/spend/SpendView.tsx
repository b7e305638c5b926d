// The Spend view: what was spent (this session, today, all time, by project), live from the core's
// spendUpdated event, and the ledger of every call behind those totals, filterable and exportable.
import { useId, useMemo, useState, type ReactNode } from 'react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { LedgerFilter, LedgerRow, Project } from '../../../shared/ipc.ts';
import { formatUsd } from '../../../shared/money.ts';
import { callPlat } from '../../platform/plat.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Money } from '../../components/Money.tsx';
import { spentAndCapColumns } from '../../components/project-columns.ts';
import { useBudgets, useProjects } from '../../platform/core-queries.ts';
import { ledgerPageQueryKey, spendQueryKey } from '../../platform/query-keys.ts';
import { downloadTextFile } from '../../components/download.ts';
import {
  ALL_PROJECTS,
  chargeMark,
  emptyLedgerFilterForm,
  fileSpendRows,
  type FileSpendRow,
  formatLocalTime,
  isFiltered,
  ledgerFilterFromForm,
  NO_PROJECT,
  operationLabel,
  pageRange,
  projectName,
  rowKindLabel,
  statusText,
  statusTone,
  summarizeRequest,
  type LedgerFilterForm,
} from './spend-model.ts';
import { BusyButton } from '../../components/BusyButton.tsx';
import './spend.css';

export const LEDGER_PAGE_SIZE = 50;

export function SpendView() {
  return (
    <div className="spend-view">
      <StorageProblem />
      <div className="spend-view__top">
        <SpendTotals />
        <SpendByProject />
      </div>
      <Ledger />
    </div>
  );
}

function useSpend() {
  // The same key and source as the status line's meter, which keeps it live from spendUpdated.
  return useQuery({ queryKey: spendQueryKey, queryFn: () => callPlat('getSpend', {}) });
}

/** The data folder refused a write (a full disk): what is counted but not yet saved, and why. */
function StorageProblem() {
  const data = useSpend().data;
  if (!data || (data.storageProblem === null && data.unsavedMicroUsd === 0)) return null;
  return (
    <div className="notice notice--warning spend-storage" role="alert" data-testid="spend-storage-notice">
      <p className="spend-storage__title">
        <strong>Plat cannot save to its data folder</strong>
      </p>
      {data.storageProblem && <p>{data.storageProblem}</p>}
      {data.unsavedMicroUsd > 0 && (
        <p>
          <Money micro={data.unsavedMicroUsd} /> charged by the service is counted in these totals but not yet written to the ledger. Plat writes
          it as soon as the folder accepts it, at the latest at the next start; nothing is charged again.
        </p>
      )}
    </div>
  );
}

function SpendTotals() {
  const spend = useSpend();
  const budgets = useBudgets();
  const data = spend.data;
  const sessionCap = budgets.data?.sessionCapMicroUsd ?? null;
  return (
    <section className="spend-section spend-totals" aria-labelledby="spend-totals-title">
      <h2 id="spend-totals-title" className="spend-section__title">
        Totals
      </h2>
      {spend.isError ? (
        <ErrorNotice error={spend.error} onRetry={() => void spend.refetch()} />
      ) : (
        <dl className="spend-totals__grid" aria-busy={spend.isPending}>
          <Stat label="This session" testId="total-session" value={data?.sessionMicroUsd}>
            {sessionCap !== null ? `of a ${formatUsd(sessionCap)} session cap` : 'no session cap'}
          </Stat>
          <Stat label="Today" testId="total-today" value={data?.todayMicroUsd}>
            since local midnight
          </Stat>
          <Stat label="All time" testId="total-all-time" value={data?.allTimeMicroUsd}>
            every call in this ledger
          </Stat>
          <Stat label="Credits" testId="total-credits" value={data?.allTimeCreditMicroUsd}>
            the balance rose (top-ups); not spending
          </Stat>
          <Stat label="Net" testId="total-net" value={data?.allTimeNetMicroUsd}>
            all time, charges − credits: what the balance fell by
          </Stat>
          <Stat label="Balance" testId="total-balance" value={data?.lastKnownBalanceMicroUsd}>
            as the service last reported it
          </Stat>
          <Stat label="Last charge" testId="total-last" value={data?.lastChargeMicroUsd}>
            {data?.lastChargeAt ? formatLocalTime(data.lastChargeAt) : 'none yet'}
          </Stat>
        </dl>
      )}
    </section>
  );
}

function Stat(props: { label: string; value: number | null | undefined; testId: string; children: ReactNode }) {
  return (
    <div className="spend-stat">
      <dt className="spend-stat__label">{props.label}</dt>
      <dd className="spend-stat__value" data-testid={props.testId}>
        <Money micro={props.value} />
      </dd>
      <dd className="spend-stat__note">{props.children}</dd>
    </div>
  );
}

const projectSpendColumns: Column<FileSpendRow>[] = [
  {
    id: 'name',
    header: 'File',
    text: (row) => `${row.name}${row.archived ? ' (archived)' : ''}`,
    render: (row) =>
      row.projectId === null ? (
        <span title="Calls charged to no assignment (asked so, or made with none active), and unreported charges found by reconciliation">{row.name}</span>
      ) : (
        <>
          {row.name}
          {row.archived && <span className="badge spend-badge spend-badge--muted">archived</span>}
        </>
      ),
  },
  { id: 'subject', header: 'Subject', text: (row) => row.subject },
  ...spentAndCapColumns<FileSpendRow>((row) => row.microUsd),
  {
    id: 'left',
    header: 'Left',
    align: 'right',
    text: (row) => (row.capMicroUsd === null ? '—' : formatUsd(Math.max(0, row.capMicroUsd - row.microUsd))),
    sortValue: (row) => (row.capMicroUsd === null ? null : row.capMicroUsd - row.microUsd),
  },
];

function SpendByProject() {
  const spend = useSpend();
  const projects = useProjects();
  const rows = useMemo(() => fileSpendRows(spend.data?.byProject, projects.data?.projects), [spend.data, projects.data]);
  return (
    <section className="spend-section spend-by-project" aria-labelledby="spend-by-project-title">
      <h2 id="spend-by-project-title" className="spend-section__title">
        By file
      </h2>
      {projects.isError && <ErrorNotice error={projects.error} compact onRetry={() => void projects.refetch()} />}
      <DataTable
        label="Spend by file"
        columns={projectSpendColumns}
        rows={rows}
        rowKey={(row) => row.projectId ?? '(none)'}
        empty={spend.isPending ? 'Loading…' : 'Nothing charged yet.'}
        initialSort={{ columnId: 'spent', direction: 'desc' }}
      />
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// Ledger

function ledgerColumns(projects: readonly Project[] | undefined): Column<LedgerRow>[] {
  return [
    {
      id: 'time',
      header: 'Time',
      width: '140px',
      text: (row) => formatLocalTime(row.startedAt),
      render: (row) => <span className="spend-ledger__time">{formatLocalTime(row.startedAt)}</span>,
      sortValue: (row) => row.startedAt,
    },
    {
      id: 'operation',
      header: 'Operation',
      text: (row) => {
        const kind = rowKindLabel(row);
        return kind ? `${kind}: ${operationLabel(row.operation)}` : `${operationLabel(row.operation)} (${row.operation})`;
      },
      render: (row) => {
        const kind = rowKindLabel(row);
        if (kind) {
          return <span className={`badge spend-badge spend-badge--${row.kind}`}>{kind}</span>;
        }
        return (
          <span className="spend-ledger__op" title={row.operation}>
            {operationLabel(row.operation)}
          </span>
        );
      },
    },
    {
      id: 'request',
      header: 'Request',
      text: (row) => summarizeRequest(row).short,
      render: (row) => {
        const summary = summarizeRequest(row);
        return (
          <span className={`spend-ledger__request${row.kind !== 'call' ? ' spend-ledger__request--adjustment' : ''}`} title={summary.full}>
            {summary.short}
          </span>
        );
      },
    },
    {
      id: 'charged',
      header: 'Charged',
      align: 'right',
      text: (row) => {
        if (row.kind === 'credit') return '';
        const mark = chargeMark(row);
        return mark ? `${formatUsd(row.chargedMicroUsd)} (${mark})` : formatUsd(row.chargedMicroUsd);
      },
      render: (row) => {
        if (row.kind === 'credit') return <span className="muted">—</span>;
        const mark = chargeMark(row);
        return (
          <>
            <Money micro={row.chargedMicroUsd} className={row.chargedMicroUsd > 0 ? 'spend-amount--charged' : 'spend-amount--zero'} />
            {mark && (
              // The service's charge header was not what its balance showed: the balance was booked.
              <span className="badge spend-badge spend-badge--mark" title={mark} data-testid="spend-charge-mark">
                <span aria-hidden="true">from balance</span>
                <span className="visually-hidden">{mark}</span>
              </span>
            )}
          </>
        );
      },
      sortValue: (row) => row.chargedMicroUsd,
    },
    {
      id: 'unreported',
      header: 'Unreported',
      align: 'right',
      text: (row) => (row.unreportedChargeMicroUsd > 0 ? formatUsd(row.unreportedChargeMicroUsd) : ''),
      render: (row) =>
        row.unreportedChargeMicroUsd > 0 ? (
          <span title="Found by reconciliation: the balance fell by more than the service reported">
            <Money micro={row.unreportedChargeMicroUsd} className="spend-amount--unreported" />
          </span>
        ) : (
          <span className="muted">—</span>
        ),
      sortValue: (row) => row.unreportedChargeMicroUsd,
    },
    {
      id: 'balance',
      header: 'Balance',
      align: 'right',
      text: (row) => (row.balanceAfterMicroUsd === null ? '' : formatUsd(row.balanceAfterMicroUsd)),
      render: (row) => <Money micro={row.balanceAfterMicroUsd} />,
      sortValue: (row) => row.balanceAfterMicroUsd,
    },
    {
      // Replays and cache hits are both free answers to an earlier call; one column keeps the table within 1280 px.
      id: 'reuse',
      header: 'Replay / cache',
      text: (row) => (row.replayed ? 'Replayed' : row.cacheHit ? 'Cache hit' : ''),
      render: (row) =>
        row.replayed ? (
          <span title="The service replayed its earlier answer to the same action, free">Replayed</span>
        ) : row.cacheHit ? (
          <span title="Answered from Plat's cache, free">Cache hit</span>
        ) : null,
    },
    {
      id: 'status',
      header: 'Status',
      text: statusText,
      render: (row) => <span className={`spend-status spend-status--${statusTone(row)}`}>{statusText(row)}</span>,
    },
    {
      id: 'project',
      header: 'Project',
      text: (row) => projectName(row.projectId, projects),
      render: (row) => (
        <span className="spend-ledger__project" title={projectName(row.projectId, projects)}>
          {projectName(row.projectId, projects)}
        </span>
      ),
    },
  ];
}

function Ledger() {
  const projects = useProjects();
  const [form, setForm] = useState<LedgerFilterForm>(emptyLedgerFilterForm);
  // The filter last typed correctly: a half-typed date keeps the table on the previous answer.
  const [filter, setFilter] = useState<LedgerFilter>({});
  const [offset, setOffset] = useState(0);
  const [exported, setExported] = useState<string | null>(null);
  const checked = ledgerFilterFromForm(form);
  const ids = { project: useId(), from: useId(), to: useId(), error: useId() };

  const ledger = useQuery({
    queryKey: ledgerPageQueryKey(filter, offset),
    queryFn: () => callPlat('listLedger', { filter, limit: LEDGER_PAGE_SIZE, offset }),
    placeholderData: keepPreviousData,
  });

  const exportCsv = useMutation({
    mutationFn: () => callPlat('exportLedgerCsv', { filter }),
    onSuccess: ({ filename, csv }) => {
      downloadTextFile(filename, csv, 'text/csv;charset=utf-8');
      const rows = csv.split('\r\n').filter((line) => line !== '').length - 1;
      setExported(`Exported ${rows} ${rows === 1 ? 'row' : 'rows'} to ${filename}.`);
    },
  });

  const update = (patch: Partial<LedgerFilterForm>) => {
    const next = { ...form, ...patch };
    setForm(next);
    setExported(null);
    const result = ledgerFilterFromForm(next);
    if (result.ok) {
      setFilter(result.filter);
      setOffset(0);
    }
  };

  const columns = useMemo(() => ledgerColumns(projects.data?.projects), [projects.data]);
  const rows = ledger.data?.rows ?? [];
  const total = ledger.data?.total ?? 0;
  const filtered = isFiltered(form);
  const openProjects = projects.data?.projects ?? [];
  const dateFields = [
    [ids.from, 'From', 'fromDate'],
    [ids.to, 'To (inclusive)', 'toDate'],
  ] as const;

  return (
    <section className="spend-section spend-ledger" aria-labelledby="spend-ledger-title">
      <div className="spend-ledger__head">
        <h2 id="spend-ledger-title" className="spend-section__title">
          Ledger
        </h2>
        <p className="muted spend-ledger__intro">
          Every service call with what the service charged; one that can cost money is written before it is sent. Newest first.
        </p>
      </div>
      <form className="spend-filters" aria-label="Ledger filters" onSubmit={(event) => event.preventDefault()}>
        <label className="spend-filters__field" htmlFor={ids.project}>
          <span>Project</span>
          <select id={ids.project} className="input" value={form.project} onChange={(event) => update({ project: event.target.value })}>
            <option value={ALL_PROJECTS}>All projects</option>
            <option value={NO_PROJECT}>No project</option>
            {openProjects.map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
                {project.archived ? ' (archived)' : ''}
              </option>
            ))}
          </select>
        </label>
        {dateFields.map(([id, label, field]) => (
          <label key={field} className="spend-filters__field" htmlFor={id}>
            <span>{label}</span>
            <input
              id={id}
              className="input"
              type="date"
              value={form[field]}
              aria-invalid={!checked.ok && checked.field === field}
              aria-describedby={!checked.ok ? ids.error : undefined}
              onChange={(event) => update({ [field]: event.target.value })}
            />
          </label>
        ))}
        {filtered && (
          <button type="button" className="button button--small spend-filters__clear" onClick={() => update(emptyLedgerFilterForm)}>
            Clear filters
          </button>
        )}
        <span className="spend-filters__spacer" />
        <BusyButton
          className="button button--small"
          onClick={() => {
            setExported(null);
            exportCsv.mutate();
          }}
          busy={exportCsv.isPending}
          disabled={!checked.ok}
        >
          {exportCsv.isPending ? 'Exporting…' : 'Export CSV'}
        </BusyButton>
      </form>
      {!checked.ok && (
        <p className="spend-filters__error" id={ids.error} role="alert">
          {checked.error}
        </p>
      )}
      {exported && (
        <p className="spend-ledger__exported" role="status">
          {exported}
        </p>
      )}
      {exportCsv.isError && <ErrorNotice error={exportCsv.error} compact />}
      {ledger.isError ? (
        <ErrorNotice error={ledger.error} onRetry={() => void ledger.refetch()} />
      ) : (
        <DataTable
          label="Spend ledger"
          columns={columns}
          rows={rows}
          rowKey={(row) => String(row.id)}
          empty={
            ledger.isPending ? (
              <span role="status">Loading the ledger…</span>
            ) : filtered ? (
              <>
                No calls match these filters.{' '}
                <button type="button" className="button button--small" onClick={() => update(emptyLedgerFilterForm)}>
                  Clear filters
                </button>
              </>
            ) : (
              'No service calls yet. Every call you make appears here with what it cost.'
            )
          }
          toolbar={
            <span className="spend-ledger__paging" aria-live="polite">
              <span data-testid="ledger-range">{pageRange(offset, rows.length, total)}</span>
              <button
                type="button"
                className="button button--small"
                disabled={offset === 0 || ledger.isFetching}
                onClick={() => setOffset(Math.max(0, offset - LEDGER_PAGE_SIZE))}
              >
                Newer
              </button>
              <button
                type="button"
                className="button button--small"
                disabled={offset + LEDGER_PAGE_SIZE >= total || ledger.isFetching}
                onClick={() => setOffset(offset + LEDGER_PAGE_SIZE)}
              >
                Older
              </button>
            </span>
          }
        />
      )}
      <p className="spend-legend muted">
        <span className="badge spend-badge spend-badge--reconciliation">Reconciliation</span> a charge the service took without
        reporting it on a call, found by comparing the balance with the reported charges; it counts in the totals.{' '}
        <span className="badge spend-badge spend-badge--credit">Credit</span> the balance rose (a top-up of credit); not a charge,
        shown under Credits and counted in the net. <strong>Unreported</strong> on a call is the part of its charge found that way.{' '}
        <span className="badge spend-badge spend-badge--mark">from balance</span> the service&apos;s charge header disagreed with its
        balance (or could not be read): Plat booked what the balance fell by, and the note says what the header said.
      </p>
    </section>
  );
}
