// A paid answer, or a part of one, whose shape Plat could not read: never dropped and never a JSON
// blob. It is shown as published (key/value rows), with every citation it carries as chips
// (shared/service/unrecognised.ts finds them), and one sentence saying which part Plat could not read.
import { answerCitations, NOT_RECOGNISED, publishedRows } from '../../shared/service/unrecognised.ts';
import type { CitationView } from '../../shared/cited/citation.ts';
import { CitationChip } from './CitationChip.tsx';
import './unrecognised-answer.css';

/** A chip's text when the answer names a source only by its id or ref: that id, so it is not "Unknown source". */
const chipMarker = (citation: CitationView): string | undefined => (citation.publisher === null ? (citation.sourceId ?? citation.recordRef ?? undefined) : undefined);

export interface UnrecognisedAnswerProps {
  /** The part Plat could not read, as a noun phrase: "the summary entry “roof”", "the node n-7 of the relationships answer". */
  part: string;
  /** The part as published. */
  value: unknown;
  /** Its citations when the caller found them in a wider answer; else those the value itself carries. */
  citations?: readonly CitationView[];
  /** Shorter, for a cell of a table. */
  compact?: boolean;
}

export function UnrecognisedAnswer({ part, value, citations, compact = false }: UnrecognisedAnswerProps) {
  const cited = citations ?? answerCitations(value);
  const { rows, more } = publishedRows(value);
  const bare = rows.length === 1 && rows[0]?.path === '';
  return (
    <div className={`unrecognised${compact ? ' unrecognised--compact' : ''}`} data-testid="unrecognised-answer">
      <p className="unrecognised__sentence">
        Plat could not read {part}: it is shown as published, <span className="unrecognised__flag">{NOT_RECOGNISED}</span>.
      </p>
      {bare ? (
        <p className="unrecognised__bare">{rows[0]?.text}</p>
      ) : rows.length > 0 ? (
        <dl className="unrecognised__rows">
          {rows.map((row, index) => (
            <div key={`${row.path}#${index}`} className="unrecognised__row">
              <dt className="mono">{row.path}</dt>
              <dd>{row.text}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">It holds no values.</p>
      )}
      {more > 0 && <p className="muted">and {more} more {more === 1 ? 'value' : 'values'} in the answer.</p>}
      <div className="unrecognised__sources cluster gap-1">
        {cited.length === 0 ? (
          <span className="muted">The answer names no source for it.</span>
        ) : (
          cited.map((citation, index) => {
            const marker = chipMarker(citation);
            return <CitationChip key={index} citation={citation} {...(marker === undefined ? {} : { marker })} />;
          })
        )}
      </div>
    </div>
  );
}
