// What every report section is drawn in: its <section> named by its heading (with what stands beside
// the heading), the lines saying what it does not have yet, its parts' subheadings, and the note of
// what did not add up. The comparables and title research parts differ only in their class prefix.
import type { ReactNode } from 'react';
import './report-parts.css';

export function ReportSectionFrame(props: { className: string; headingId: string; title: ReactNode; section?: string; aside?: ReactNode; children: ReactNode }) {
  return (
    <section className={props.className} aria-labelledby={props.headingId} data-section={props.section}>
      <header className="report-section__header">
        <h2 id={props.headingId}>{props.title}</h2>
        {props.aside}
      </header>
      {props.children}
    </section>
  );
}

/** What the section does not have yet, a line each. */
export function MissingLines({ lines, label }: { lines: readonly string[]; label: string }) {
  if (lines.length === 0) return null;
  return (
    <ul className="report-section__limitations" aria-label={label}>
      {lines.map((line) => (
        <li key={line} className="report-limitation">
          {line}
        </li>
      ))}
    </ul>
  );
}

/** A part's heading; the part is labelled by its id, `${prefix}-${id}`. */
export function PartHeading({ prefix, id, children }: { prefix: string; id: string; children: ReactNode }) {
  return (
    <h3 className={`${prefix}__heading`} id={`${prefix}-${id}`}>
      {children}
    </h3>
  );
}

/** The problems the section found in its answers, under a title that is also its name. */
export function PartProblems({ prefix, problems, label }: { prefix: string; problems: readonly string[]; label: string }) {
  if (problems.length === 0) return null;
  return (
    <div className={`${prefix}__problems`} role="note" aria-label={label}>
      <p className={`${prefix}__problems-title`}>{label}</p>
      <ul>
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A part of a section, labelled by its heading. A `modifier` part also carries `${prefix}__part--${id}`
 * (the class its print rules name).
 */
export function ReportPart({ prefix, id, title, modifier, children }: { prefix: string; id: string; title: ReactNode; modifier?: boolean; children: ReactNode }) {
  return (
    <div className={modifier ? `${prefix}__part ${prefix}__part--${id}` : `${prefix}__part`} aria-labelledby={`${prefix}-${id}`}>
      <PartHeading prefix={prefix} id={id}>
        {title}
      </PartHeading>
      {children}
    </div>
  );
}
