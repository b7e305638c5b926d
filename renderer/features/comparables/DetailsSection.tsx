import type { ReactNode } from 'react';

/** One of the view's folding sections: its title with a line beside it, then what it holds. */
export function DetailsSection({ title, summary, open, children }: { title: string; summary: ReactNode; open?: boolean; children: ReactNode }) {
  return (
    <details className="comps-section comps-details" open={open}>
      <summary>
        <h2 className="comps-details__title">{title}</h2>
        <span className="muted">{summary}</span>
      </summary>
      {children}
    </details>
  );
}
