// The appraiser's adjustment rates, each in its unit, with the regression's suggestion beside it (the
// estimate, its 95 % confidence interval and the number of sales): "Accept" takes a supported
// suggestion; one the sales do not support (regression-standing.ts) shows why, and "Use anyway…"
// takes it only with a written reason, printed next to the rate. Typing makes the rate the
// appraiser's own; a rate set carries its quiet chip (the appraiser's rate, cited to them). Below, the
// support in full: the method, n, R², every coefficient with its interval and standing, the sales
// used (each cited) and the sales left out and why.
import { useState, type ReactNode } from 'react';
import { rateKeys, rateLabels, type CitedGrid, type ComparablesWorkfile, type RateKey, type RateSuggestion, type RegressionSupport } from '../../../shared/comparables/model.ts';
import { formatDay } from '../../../shared/format-date.ts';
import { formatPublishedDollars } from '../../../shared/format/dollars.ts';
import { CitationChips, type CitationIndex } from './CitedCell.tsx';
import { DerivedChip } from './DerivedChip.tsx';
import { acceptSuggestion, parseRateText, rateInputText, setRate, takeUnsupportedSuggestion } from './comparables-model.ts';
import { suggestionCounts } from '../../../shared/comparables/regression-standing.ts';
import { estimateNumberText, roundRate } from '../../../shared/comparables/rate-text.ts';
import './rates.css';
import { numeric } from '../../components/table-heading.ts';
import { DetailsSection, PlainTable } from './DetailsSection.tsx';
import { formatFixed, formatR2 } from '../../../shared/format/number.ts';
import { supportEmptyText, type SearchOutcome } from '../../../shared/comparables/empty-words.ts';

type Edit = (change: (workfile: ComparablesWorkfile) => ComparablesWorkfile) => void;

export function RatesPanel({ workfile, support, outcome, edit, cited, index }: { workfile: ComparablesWorkfile; support: RegressionSupport; outcome: SearchOutcome; edit: Edit; cited?: CitedGrid | null; index?: CitationIndex }) {
  return (
    <section className="comps-section stack" aria-labelledby="comps-rates-title">
      <div className="comps-section__head cluster align-baseline">
        <h2 id="comps-rates-title">Adjustment rates</h2>
        <span className="muted">
          {supportEmptyText(outcome) ?? support.message ?? supportSummary(support)}
        </span>
      </div>
      <div className="comps-rates">
        {rateKeys.map((key) => (
          <RateField
            key={key}
            rateKey={key}
            value={workfile.rates[key]}
            source={workfile.rateSource[key] ?? null}
            unsupportedReason={workfile.unsupportedRateReasons?.[key]?.reason ?? null}
            suggestion={support.message === null ? support.suggestions[key] : null}
            n={support.n}
            edit={edit}
            chip={cited?.rates[key] && index ? <DerivedChip value={cited.rates[key]} index={index} /> : null}
          />
        ))}
      </div>
    </section>
  );
}

function supportSummary(support: RegressionSupport): string {
  const { offered, notSupported } = suggestionCounts(support.suggestions);
  return `Suggestions from a regression of ${support.n} sales of this search (R² ${formatR2(support.r2)}): ${offered} supported, ${notSupported} not supported; yours until you accept one.`;
}

function suggestionText(key: RateKey, suggestion: RateSuggestion): string {
  if (suggestion.value === null) return '';
  const value = estimateNumberText(key, suggestion.value);
  const ci = suggestion.ciLow !== null && suggestion.ciHigh !== null ? ` (95 % CI ${estimateNumberText(key, suggestion.ciLow)} to ${estimateNumberText(key, suggestion.ciHigh)})` : '';
  return `${value}${ci}`;
}

function RateField(props: {
  rateKey: RateKey;
  value: number | null;
  source: 'appraiser' | 'suggestion' | null;
  unsupportedReason: string | null;
  suggestion: RateSuggestion | null;
  n: number;
  edit: Edit;
  chip?: ReactNode;
}) {
  const { rateKey: key, value, source, unsupportedReason, suggestion, n, edit } = props;
  const { label, unit } = rateLabels[key];
  const [text, setText] = useState(rateInputText(value));
  const [problem, setProblem] = useState<string | null>(null);
  // The stored rate changed under the field (a suggestion accepted): show it.
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    const parsed = parseRateText(key, text);
    if (!parsed.ok || parsed.value !== value) {
      setText(rateInputText(value));
      setProblem(null);
    }
  }
  const inputId = `comps-rate-${key}`;
  const taken = suggestion?.value != null && source === 'suggestion' && value === roundRate(key, suggestion.value);
  return (
    <div className="comps-rate" data-rate={key}>
      <label className="comps-rate__label" htmlFor={inputId}>
        {label}
        <span className="comps-rate__unit">{unit}</span>
      </label>
      <div className="comps-rate__row">
        <input
          id={inputId}
          className="input input--compact comps-rate__input"
          inputMode="decimal"
          aria-label={`Rate: ${label} (${unit})`}
          aria-invalid={problem !== null}
          placeholder="none"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (/^\s*[-+\u2212]\s*$/.test(event.target.value)) return;
            const parsed = parseRateText(key, event.target.value);
            setProblem(parsed.ok ? null : parsed.error);
            if (parsed.ok && (parsed.value !== value || source !== 'appraiser')) edit((w) => setRate(w, key, parsed.value, 'appraiser'));
          }}
        />
        {value !== null && source && <span className={`comps-rate__source comps-rate__source--${source}`}>{source === 'suggestion' ? 'suggested' : 'yours'}</span>}
        {value !== null && props.chip}
      </div>
      {problem && (
        <span className="comps-field-error" role="alert">
          {problem}
        </span>
      )}
      <div className="comps-rate__suggestion">
        {suggestion === null ? null : suggestion.value === null ? (
          <span className="muted" title={suggestion.why ?? undefined}>
            No suggestion{suggestion.why ? `: ${suggestion.why}` : ''}
          </span>
        ) : (
          <>
            <span data-testid={`suggestion-${key}`}>
              Suggests <strong>{suggestionText(key, suggestion)}</strong>
              <span className="muted"> · n {n}</span>
            </span>
            {suggestion.standing.supported && (
              <button type="button" className="button button--small" aria-label={`Accept the suggested rate for ${label}`} disabled={taken} onClick={() => edit((w) => acceptSuggestion(w, suggestion))}>
                Accept
              </button>
            )}
          </>
        )}
      </div>
      {suggestion !== null && suggestion.value !== null && !suggestion.standing.supported && (
        <NotSupported rateKey={key} label={label} suggestion={suggestion} taken={taken} reason={unsupportedReason} edit={edit} />
      )}
    </div>
  );
}

/** A suggestion the sales do not support: every reason, and "Use anyway…" with a written reason. */
function NotSupported(props: { rateKey: RateKey; label: string; suggestion: RateSuggestion; taken: boolean; reason: string | null; edit: Edit }) {
  const { rateKey: key, label, suggestion, taken, reason, edit } = props;
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState('');
  const reasonId = `comps-rate-reason-${key}`;
  return (
    <div className="comps-rate__standing" data-testid={`standing-${key}`}>
      <strong className="comps-rate__not-supported">Not supported</strong>
      <ul className="comps-rate__reasons">
        {suggestion.standing.reasons.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
      {taken && reason !== null ? (
        <span className="comps-rate__used-anyway">Used anyway. Your reason: “{reason}”</span>
      ) : open ? (
        <form
          className="comps-rate__reason-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (draft.trim() === '') return;
            edit((w) => takeUnsupportedSuggestion(w, suggestion, draft, new Date().toISOString()));
            setOpen(false);
            setDraft('');
          }}
        >
          <label htmlFor={reasonId}>Why use a rate the sales do not support? Printed next to the rate.</label>
          <textarea id={reasonId} className="input" rows={2} value={draft} onChange={(event) => setDraft(event.target.value)} autoFocus />
          <span className="cluster">
            <button type="submit" className="button button--small" disabled={draft.trim() === ''}>
              Use with this reason
            </button>
            <button type="button" className="button button--small button--ghost" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </span>
        </form>
      ) : (
        <button type="button" className="button button--small" aria-label={`Use the unsupported suggested rate for ${label} anyway`} onClick={() => setOpen(true)}>
          Use anyway…
        </button>
      )}
    </div>
  );
}

/** A statistic to fixed decimals with a real minus sign, as the report prints it. */
const formatNumber = (value: number | null, digits = 0): string => (value === null ? '—' : formatFixed(value, digits));

/** The regression in full: what was fitted, how well, on which sales. */
export function SupportDetails({ support, outcome, index }: { support: RegressionSupport; outcome: SearchOutcome; index: CitationIndex }) {
  return (
    <DetailsSection
      title="Adjustment support"
      summary={supportEmptyText(outcome) ?? support.message ?? `n ${support.n} · R² ${formatR2(support.r2)} · adjusted R² ${formatR2(support.adjustedR2)} · ${support.excluded.length} sales left out`}
    >
      <p className="comps-details__method">{support.method}</p>
      {support.message === null && (
        <PlainTable label="Regression coefficients" columns={['Rate', numeric('Suggested'), numeric('95 % CI'), numeric('Coefficient'), numeric('Std. error'), 'Note']}>
          {rateKeys.map((key) => {
            const suggestion = support.suggestions[key];
            return (
              <tr key={key}>
                <th scope="row">
                  {rateLabels[key].label} <span className="muted">({rateLabels[key].unit})</span>
                </th>
                <td className="is-numeric">{suggestion.value === null ? '—' : estimateNumberText(key, suggestion.value)}</td>
                <td className="is-numeric">
                  {suggestion.ciLow === null || suggestion.ciHigh === null ? '—' : `${estimateNumberText(key, suggestion.ciLow)} to ${estimateNumberText(key, suggestion.ciHigh)}`}
                </td>
                <td className="is-numeric">{formatNumber(suggestion.coefficient, 2)}</td>
                <td className="is-numeric">{formatNumber(suggestion.stdError, 2)}</td>
                <td className="muted">
                  {suggestion.why ?? (suggestion.standing.supported ? 'Supported' : `Not supported: ${suggestion.standing.reasons.join(' ')}`)}
                </td>
              </tr>
            );
          })}
        </PlainTable>
      )}
      <div className="comps-details__lists">
        <div>
          <h3>Sales used ({support.salesUsed.length})</h3>
          <ul className="comps-details__list" aria-label="Sales the regression used">
            {support.salesUsed.map((sale) => (
              <li key={sale.id}>
                {sale.address} · {formatPublishedDollars(sale.priceDollars)} · {sale.saleDate === null ? 'no date' : formatDay(sale.saleDate)}
                <CitationChips ids={sale.citationIds} index={index} />
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h3>Left out ({support.excluded.length})</h3>
          <ul className="comps-details__list" aria-label="Sales the regression left out">
            {support.excluded.map((sale) => (
              <li key={sale.id}>
                {sale.address} <span className="muted">· {sale.why}</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </DetailsSection>
  );
}
