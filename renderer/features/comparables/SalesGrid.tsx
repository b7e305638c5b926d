// The URAR sales comparison grid: the subject first, then each chosen comp in its own column, every
// cell a cited value; beside each comp's description its ± adjustment (worked out from the rates, with
// the working on hover, or typed as a lump sum on the rows no rate covers). Each column ends with net,
// gross, their percent of the sale price, the adjusted price and the comp's weight; the block ends
// with the range of adjusted prices and the appraiser's indicated value with its required comment.
import { useState, type ReactNode } from 'react';
import {
  gridRowKeys,
  manualRows,
  rateRow,
  weights,
  type ComparableWeight,
  type ComparablesAnalysis,
  type ComparablesWorkfile,
  type GridRowKey,
  type ManualRowKey,
  type RateKey,
} from '../../../shared/comparables/model.ts';
import { formatAdjustment, reconciliationProblems } from '../../../shared/comparables/adjustments.ts';
import { weightLabels } from '../../../shared/comparables/grid-csv.ts';
import { areaRowLabel, gridProperties } from '../../../shared/comparables/answer-values.ts';
import { formatDollars } from '../../../shared/money.ts';
import { formatShareOfPrice } from '../../../shared/format/percent.ts';
import { gridEmptyText, rangeBasisText, type SearchOutcome } from '../../../shared/comparables/empty-words.ts';
import { CitedCell, type CitationIndex } from './CitedCell.tsx';
import type { CitedValue } from '../../../shared/cited/value.ts';
import { acceptCopiedValues, parseDollarText, parseValueText, setManualAdjustment, setReconciliation, setWeight, moveComp, withdrawCopiedValues } from './comparables-model.ts';
import { CopiedValuesDialog, copiedIn } from './CopiedValuesDialog.tsx';
import { DerivedChip } from './DerivedChip.tsx';
import type { CitedGridColumn } from '../../../shared/comparables/model.ts';
import './sales-grid.css';
import { SelectOptions } from '../../components/SelectOptions.tsx';

const manualRowSet: ReadonlySet<GridRowKey> = new Set(manualRows);
const rateOfRow = new Map<GridRowKey, RateKey>(Object.entries(rateRow).map(([rate, row]) => [row, rate as RateKey]));

type Edit = (change: (workfile: ComparablesWorkfile) => ComparablesWorkfile) => void;

export function SalesGrid(props: {
  analysis: ComparablesAnalysis;
  /** Whether a search ran and what it returned: what the grid says before any comp is chosen. */
  outcome: SearchOutcome;
  workfile: ComparablesWorkfile;
  index: CitationIndex;
  edit: Edit;
  onDrop: (id: string) => void;
  onHighlight: (id: string | null) => void;
  /** The grid's exports, in its heading. */
  exports?: ReactNode;
}) {
  const { analysis, workfile, index, edit, onDrop, onHighlight } = props;
  const [accepting, setAccepting] = useState<GridRowKey | null>(null);
  const subject = analysis.set.subject;
  const comps = analysis.chosen;
  // The area rows name the measure as published (gross building area standing in for GLA says so).
  const properties = gridProperties(analysis);
  const columns = new Map(analysis.grid.columns.map((column) => [column.compId, column]));
  const cited = new Map((analysis.cited?.columns ?? []).map((column) => [column.compId, column]));

  if (!subject) {
    return (
      <section className="comps-section stack" aria-labelledby="comps-grid-title">
        <h2 id="comps-grid-title">Sales comparison grid</h2>
        <p className="muted">The grid’s subject column comes from the subject’s record: buy it above to build the grid.</p>
      </section>
    );
  }
  return (
    <section className="comps-section stack" aria-labelledby="comps-grid-title">
      <div className="comps-section__head cluster align-baseline">
        <h2 id="comps-grid-title">Sales comparison grid</h2>
        <span className="muted">
          {comps.length === 0 ? gridEmptyText(props.outcome) : `${comps.length} ${comps.length === 1 ? 'comp' : 'comps'} · comp inferior to the subject → +, superior → −`}
        </span>
        <span className="comps-spacer" />
        {props.exports}
      </div>
      <div className="comps-grid__scroll">
        <table className="comps-grid" aria-label="Sales comparison grid">
          <thead>
            <tr>
              <th scope="col" className="comps-grid__label comps-grid__corner">
                Feature
              </th>
              <th scope="col" className="comps-grid__subject">
                Subject
              </th>
              {comps.map((comp, at) => (
                <th key={comp.id} scope="colgroup" colSpan={2} className="comps-grid__comp-head" onMouseEnter={() => onHighlight(comp.id)} onMouseLeave={() => onHighlight(null)}>
                  <div className="comps-grid__comp-title">
                    <span className="comps-grid__number">Comp {at + 1}</span>
                    <span className="comps-grid__actions">
                      <button type="button" className="comps-icon-button" aria-label={`Move comp ${at + 1} left`} disabled={at === 0} onClick={() => edit((w) => moveComp(w, comp.id, -1))}>
                        ◀
                      </button>
                      <button
                        type="button"
                        className="comps-icon-button"
                        aria-label={`Move comp ${at + 1} right`}
                        disabled={at === comps.length - 1}
                        onClick={() => edit((w) => moveComp(w, comp.id, 1))}
                      >
                        ▶
                      </button>
                      <button type="button" className="comps-icon-button" aria-label={`Drop comp ${at + 1}`} onClick={() => onDrop(comp.id)}>
                        ✕
                      </button>
                    </span>
                  </div>
                  <div className="comps-grid__comp-address">{comp.address}</div>
                </th>
              ))}
            </tr>
            <tr className="comps-grid__subhead">
              <th scope="col" className="comps-grid__label">
                <span className="visually-hidden">Feature</span>
              </th>
              <th scope="col" className="comps-grid__subject">
                Description
              </th>
              {comps.map((comp, at) => (
                <SubHead key={comp.id} number={at + 1} />
              ))}
            </tr>
          </thead>
          <tbody>
            {gridRowKeys.map((row) => (
              <tr key={row}>
                <th scope="row" className="comps-grid__label">
                  {areaRowLabel(row, properties)}
                  {rateOfRow.has(row) && workfile.rates[rateOfRow.get(row)!] === null && <span className="comps-grid__norate"> · no rate</span>}
                  {rateOfRow.has(row) && row !== 'saleDate' && copiedIn(analysis, row).length > 0 && (
                    <CopiedRowAction row={row} label={subject.values[row].label} accepted={(workfile.syntheticAccepted ?? []).filter((act) => act.row === row).length} onOpen={setAccepting} />
                  )}
                </th>
                <td className="comps-grid__subject">{row === 'proximity' ? <span className="muted">—</span> : <CitedCell value={subject.values[row]} index={index} />}</td>
                {comps.map((comp, at) => {
                  const column = columns.get(comp.id);
                  const adjustment = column?.adjustments[row];
                  const figure = cited.get(comp.id)?.adjustments[row];
                  return [
                    <td key={`${comp.id}-d`} className="comps-grid__desc">
                      <CitedCell value={comp.values[row]} index={index} />
                    </td>,
                    <td key={`${comp.id}-a`} className="comps-grid__adj is-numeric" data-testid={`grid-adjustment-${row}-${at + 1}`}>
                      {manualRowSet.has(row) ? (
                        <LumpSum
                          key={`${comp.id}-${row}`}
                          compNumber={at + 1}
                          label={areaRowLabel(row, properties)}
                          value={workfile.manual[comp.id]?.[row as ManualRowKey] ?? null}
                          onChange={(dollars) => edit((w) => setManualAdjustment(w, comp.id, row as ManualRowKey, dollars))}
                        />
                      ) : adjustment !== undefined ? (
                        <>
                          <span className={`comps-adj${adjustment > 0 ? ' comps-adj--plus' : adjustment < 0 ? ' comps-adj--minus' : ''}`} title={column?.workings[row] ?? undefined}>
                            {formatAdjustment(adjustment)}
                          </span>
                          {figure && <DerivedChip value={figure} index={index} />}
                        </>
                      ) : null}
                      {manualRowSet.has(row) && figure && <DerivedChip value={figure} index={index} />}
                    </td>,
                  ];
                })}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <SummaryRow columns={columns} cited={cited} index={index} label="Net adjustment" comps={comps} render={(column) => formatAdjustment(column.net)} figure={(c) => c.net} testId="grid-net" />
            <SummaryRow columns={columns} cited={cited} index={index} label="Gross adjustment" comps={comps} render={(column) => formatDollars(column.gross)} figure={(c) => c.gross} testId="grid-gross" />
            <SummaryRow columns={columns} cited={cited} index={index} label="Net % of sale price" comps={comps} render={(column) => formatShareOfPrice(column.netPct)} figure={(c) => c.netPct} testId="grid-net-pct" />
            <SummaryRow columns={columns} cited={cited} index={index} label="Gross % of sale price" comps={comps} render={(column) => formatShareOfPrice(column.grossPct)} figure={(c) => c.grossPct} testId="grid-gross-pct" />
            <SummaryRow
              columns={columns}
              cited={cited}
              index={index}
              label="Adjusted sale price"
              comps={comps}
              render={(column) => formatDollars(column.adjustedPrice)}
              figure={(c) => c.adjustedPrice}
              testId="grid-adjusted"
              strong
            />
            <tr>
              <th scope="row" className="comps-grid__label">
                Weight
              </th>
              <td className="comps-grid__subject" />
              {comps.map((comp, at) => (
                <td key={comp.id} colSpan={2} className="comps-grid__summary">
                  <select
                    className="input input--compact"
                    aria-label={`Weight of comp ${at + 1}`}
                    value={columns.get(comp.id)?.weight ?? workfile.weights[comp.id] ?? 'less'}
                    onChange={(event) => edit((w) => setWeight(w, comp.id, event.target.value as ComparableWeight))}
                  >
                    <SelectOptions items={weights} label={(weight) => weightLabels[weight]} />
                  </select>
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
      </div>
      <ColumnWarnings analysis={analysis} />
      <Reconciliation analysis={analysis} workfile={workfile} edit={edit} index={index} />
      <CopiedValuesDialog
        row={accepting}
        analysis={analysis}
        workfile={workfile}
        onAccept={(act) => {
          edit((w) => acceptCopiedValues(w, { ...act, at: new Date().toISOString() }));
          setAccepting(null);
        }}
        onWithdraw={(row, compId) => edit((w) => withdrawCopiedValues(w, row, compId))}
        onClose={() => setAccepting(null)}
      />
    </section>
  );
}

type GridColumn = ComparablesAnalysis['grid']['columns'][number];

/** The row's "Accept copied values…": the sample copied this characteristic, so it adjusts nothing until accepted. */
function CopiedRowAction(props: { row: GridRowKey; label: string; accepted: number; onOpen: (row: GridRowKey) => void }) {
  return (
    <span className="comps-grid__copied">
      {props.accepted > 0 && <span className="comps-grid__accepted"> · {props.accepted} accepted</span>}
      <button type="button" className="link-button comps-grid__copied-button" aria-label={`Accept copied values: ${props.label}`} onClick={() => props.onOpen(props.row)}>
        Accept copied values…
      </button>
    </span>
  );
}

function SummaryRow(row: {
  label: string;
  comps: ComparablesAnalysis['chosen'];
  columns: ReadonlyMap<string, GridColumn>;
  cited: ReadonlyMap<string, CitedGridColumn>;
  index: CitationIndex;
  render: (column: GridColumn) => string;
  figure: (column: CitedGridColumn) => CitedValue;
  testId: string;
  strong?: boolean;
}) {
  return (
    <tr className={row.strong ? 'comps-grid__total' : undefined}>
      <th scope="row" className="comps-grid__label">
        {row.label}
      </th>
      <td className="comps-grid__subject" />
      {row.comps.map((comp, at) => {
        const column = row.columns.get(comp.id);
        const figure = row.cited.get(comp.id);
        return (
          <td key={comp.id} colSpan={2} className="comps-grid__summary is-numeric" data-testid={`${row.testId}-${at + 1}`}>
            {column ? row.render(column) : '—'}
            {figure && <DerivedChip value={row.figure(figure)} index={row.index} />}
          </td>
        );
      })}
    </tr>
  );
}

function SubHead({ number }: { number: number }) {
  return (
    <>
      <th scope="col" className="comps-grid__desc">
        Description<span className="visually-hidden"> of comp {number}</span>
      </th>
      <th scope="col" className="comps-grid__adj is-numeric">
        ± Adjustment<span className="visually-hidden"> of comp {number}</span>
      </th>
    </>
  );
}

/** A lump sum typed for a row no rate covers; kept as typed until it reads as whole dollars. */
function LumpSum(props: { compNumber: number; label: string; value: number | null; onChange: (dollars: number | null) => void }) {
  const [text, setText] = useState(props.value === null ? '' : String(props.value));
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <span className="comps-lump">
      <input
        className="input input--compact comps-lump__input"
        inputMode="numeric"
        aria-label={`Comp ${props.compNumber}: ${props.label} adjustment ($)`}
        aria-invalid={problem !== null}
        title={problem ?? 'A lump sum in whole dollars: + when the comp is inferior, − when superior'}
        placeholder="±$"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          // A sign alone is the start of an amount, not a mistake.
          if (/^\s*[-+\u2212]\s*$/.test(event.target.value)) return;
          const parsed = parseDollarText(event.target.value);
          setProblem(parsed.ok ? null : parsed.error);
          if (parsed.ok && parsed.value !== props.value) props.onChange(parsed.value);
        }}
      />
      {problem && (
        <span className="comps-field-error" role="alert">
          {problem}
        </span>
      )}
    </span>
  );
}

function ColumnWarnings({ analysis }: { analysis: ComparablesAnalysis }) {
  const warnings = analysis.grid.columns.flatMap((column, at) => column.warnings.map((warning) => `Comp ${at + 1}: ${warning}`));
  if (warnings.length === 0) return null;
  return (
    <details className="comps-warnings">
      <summary>
        {warnings.length} {warnings.length === 1 ? 'adjustment was' : 'adjustments were'} not made
      </summary>
      <ul>
        {warnings.map((warning) => (
          <li key={warning}>{warning}</li>
        ))}
      </ul>
    </details>
  );
}

function Reconciliation({ analysis, workfile, edit, index }: { analysis: ComparablesAnalysis; workfile: ComparablesWorkfile; edit: Edit; index: CitationIndex }) {
  const stored = workfile.reconciliation.indicatedValueDollars;
  const [text, setText] = useState(stored === null ? '' : String(stored));
  const [problem, setProblem] = useState<string | null>(null);
  const problems = reconciliationProblems(workfile, analysis.grid);
  const range = analysis.grid.adjustedRange;
  return (
    <div className="comps-reconcile stack" role="group" aria-labelledby="comps-reconcile-title">
      <h3 id="comps-reconcile-title">Reconciliation</h3>
      <p className="comps-reconcile__range" data-testid="grid-range">
        {range ? (
          <>
            Adjusted prices range from <strong>{formatDollars(range.low)}</strong> to <strong>{formatDollars(range.high)}</strong>
            <span className="muted"> ({rangeBasisText(analysis.grid.columns.map((column) => column.weight))})</span>
            {analysis.cited?.adjustedRange && <DerivedChip value={analysis.cited.adjustedRange} index={index} />}
          </>
        ) : (
          <span className="muted">No adjusted prices yet: choose comps to see their range.</span>
        )}
      </p>
      <div className="comps-reconcile__fields">
        <label className="comps-field">
          <span className="comps-field__label">Indicated value by sales comparison</span>
          <input
            className="input comps-reconcile__value"
            inputMode="numeric"
            aria-invalid={problem !== null}
            value={text}
            placeholder="$"
            onChange={(event) => {
              setText(event.target.value);
              const parsed = parseValueText(event.target.value);
              setProblem(parsed.ok ? null : parsed.error);
              if (parsed.ok) edit((w) => setReconciliation(w, { indicatedValueDollars: parsed.value }));
            }}
          />
          {problem && (
            <span className="comps-field-error" role="alert">
              {problem}
            </span>
          )}
          {analysis.cited?.indicatedValue && (
            <span className="comps-reconcile__cited muted" data-testid="grid-indicated-cited">
              {analysis.cited.indicatedValue.display}, the appraiser’s value
              <DerivedChip value={analysis.cited.indicatedValue} index={index} />
            </span>
          )}
        </label>
        <label className="comps-field comps-field--grow">
          <span className="comps-field__label">
            Reconciliation comment <span className="muted">(required)</span>
          </span>
          <textarea
            className="input comps-reconcile__comment"
            required
            aria-required="true"
            rows={3}
            maxLength={5_000}
            value={workfile.reconciliation.comment}
            placeholder="Which comps weighed most, and why"
            onChange={(event) => edit((w) => setReconciliation(w, { comment: event.target.value }))}
          />
        </label>
      </div>
      {problems.length > 0 && (
        <ul className="comps-problems comps-problems--quiet" aria-label="What the reconciliation still needs">
          {problems.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
