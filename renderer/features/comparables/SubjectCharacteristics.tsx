// The subject's characteristics as the assignment resolves them (shared/comparables/subject/): one
// value each from every answer held, the others beside it, why it was chosen, and what the answers
// say against each other. The appraiser uses another value with a written reason ("Use this…"), or
// goes back to Plat's choice; the choice is kept in the comparables workfile and applies in the grid,
// the report, the exports and the PDF. Shown in the Comparables view and on the subject's page.
import { useMemo, useState } from 'react';
import type { ComparablesWorkfile } from '../../../shared/comparables/model.ts';
import { resolveSubject, type SubjectCharacteristicKey } from '../../../shared/comparables/subject/resolve.ts';
import { citedSubject } from '../../../shared/comparables/subject/cited.ts';
import { CitationBook } from '../../../shared/cited/citation-book.ts';
import { formatDateTime } from '../../../shared/format-date.ts';
import { SubjectChoiceDialog, type SubjectChoiceRequest } from './SubjectChoiceDialog.tsx';
import { CitationChips, CitedCell, citationIndexOf } from './CitedCell.tsx';
import { DetailsSection, PlainTable } from './DetailsSection.tsx';
import './subject-characteristics.css';

export interface SubjectChoiceChange {
  key: SubjectCharacteristicKey;
  /** Null withdraws the appraiser's choice (Plat's rule applies again). */
  choice: { alternativeKey: string; reason: string } | null;
}

export function SubjectCharacteristics(props: {
  subject: unknown;
  summary: unknown;
  effectiveDate: string;
  subjectChoices: ComparablesWorkfile['subjectChoices'];
  onChoose: (change: SubjectChoiceChange) => void;
  saving?: boolean;
  error?: unknown;
}) {
  const { subject, summary, effectiveDate, subjectChoices } = props;
  const view = useMemo(() => {
    const book = new CitationBook();
    const cited = citedSubject(resolveSubject({ subject, summary, effectiveDate, choices: subjectChoices }), book.cite);
    return { ...cited, index: citationIndexOf(book.all()) };
  }, [subject, summary, effectiveDate, subjectChoices]);
  const [choosing, setChoosing] = useState<SubjectChoiceRequest | null>(null);
  const shown = view.characteristics.filter(({ value }) => value.status !== 'unavailable');
  const disagreeing = shown.filter(({ value }) => value.alternatives.length > 0).length;
  const summaryLine =
    view.contradictions.length > 0
      ? `${view.contradictions.length} contradiction${view.contradictions.length === 1 ? '' : 's'} in the answers held`
      : disagreeing > 0
        ? `${disagreeing} with other values in the answers held`
        : 'One value each, from the answers held';
  return (
    <DetailsSection title="Subject characteristics" summary={summaryLine} open={view.contradictions.length > 0 || disagreeing > 0}>
      <div className="subject-chars" data-testid="subject-characteristics">
        {view.contradictions.length > 0 && (
          <ul className="subject-chars__contradictions" aria-label="Contradictions">
            {view.contradictions.map((contradiction) => (
              <li key={`${contradiction.kind}-${contradiction.key}-${contradiction.text}`} className="notice notice--warning" role="note" data-testid="subject-contradiction">
                {contradiction.text} <CitationChips ids={contradiction.citationIds} index={view.index} />
              </li>
            ))}
          </ul>
        )}
        {shown.length === 0 ? (
          <p className="muted">No answer held gives the subject’s characteristics yet: buy the subject report.</p>
        ) : (
          <PlainTable label="Subject characteristics" columns={['Characteristic', 'Value', 'Other values in the answers', 'Why this value']}>
            {shown.map(({ key, value, chosenKey }) => (
              <tr key={key} data-testid={`subject-char-${key}`}>
                <th scope="row">{value.label}</th>
                <td>
                  <CitedCell value={value} index={view.index} />
                </td>
                <td>
                  {value.alternatives.length === 0 ? (
                    <span className="muted">None</span>
                  ) : (
                    <ul className="subject-chars__alternatives">
                      {value.alternatives.map((alternative) => (
                        <li key={alternative.key}>
                          <span className={`comps-value comps-value--${alternative.status}`}>
                            <span className="comps-value__text">{alternative.display}</span>
                            {alternative.status !== 'reported' && <span className={`comps-flag comps-flag--${alternative.status}`}>{alternative.status}</span>}
                            <CitationChips ids={alternative.citationIds} index={view.index} />
                          </span>{' '}
                          <button
                            type="button"
                            className="link-button link-button--underlined"
                            onClick={() => setChoosing({ key, value, alternative })}
                            aria-label={`Use ${alternative.display} for ${value.label.toLowerCase()}…`}
                          >
                            Use this…
                          </button>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className="subject-chars__why">
                  {value.choice?.by === 'appraiser' ? (
                    <>
                      <span>
                        The appraiser’s choice: “{value.choice.reason}”{value.choice.at ? <span className="muted"> ({formatDateTime(value.choice.at)})</span> : null}
                      </span>{' '}
                      <button type="button" className="link-button link-button--underlined" onClick={() => props.onChoose({ key, choice: null })}>
                        Back to Plat’s choice
                      </button>
                    </>
                  ) : (
                    <>
                      <span className="muted">{value.choice?.reason ?? (value.status === 'synthetic' ? 'Only a copied value is held.' : 'The answers agree.')}</span>
                      {value.alternatives.length > 0 && chosenKey !== null && (
                        <>
                          {' '}
                          <button
                            type="button"
                            className="link-button link-button--underlined"
                            onClick={() => setChoosing({ key, value, adopt: true, alternative: { key: chosenKey, display: value.display, status: value.status, citationIds: value.citationIds, note: null } })}
                            aria-label={`Adopt ${value.display} for ${value.label.toLowerCase()} with a reason…`}
                          >
                            Adopt with a reason…
                          </button>
                        </>
                      )}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </PlainTable>
        )}
      </div>
      <SubjectChoiceDialog
        request={choosing}
        saving={props.saving ?? false}
        error={choosing ? (props.error ?? null) : null}
        onCancel={() => setChoosing(null)}
        onSave={(reason) => {
          if (!choosing) return;
          props.onChoose({ key: choosing.key, choice: { alternativeKey: choosing.alternative.key, reason } });
          setChoosing(null);
        }}
      />
    </DetailsSection>
  );
}
