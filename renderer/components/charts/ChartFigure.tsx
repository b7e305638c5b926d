// One chart, drawn from its spec by Observable Plot, with its table beside it: on screen the pointer
// shows the nearest sale with its citation chips; the table holds the same numbers for the keyboard
// and screen readers, and prints with the chart. Light or dark from the design tokens; print is light.
import { useLayoutEffect, useRef, useState } from 'react';
import type { ChartPoint, ChartSpec } from '../../../shared/charts/chart-spec.ts';
import type { Citation } from '../../../shared/cited/value.ts';
import { citationView } from '../../../shared/cited/citation.ts';
import { CitationChip } from '../CitationChip.tsx';
import type { ColorScheme } from '../../platform/use-color-scheme.ts';
import { chartPalette } from './chart-palette.ts';
import type { DrawnChart } from './plot-chart.ts';
import { usePlotChart } from './plot-loader.ts';
import './chart.css';

/** A citation by id with the number it has on the page (the screen's or the report's endnotes). */
export type ChartCitations = ReadonlyMap<string, { citation: Citation; number: number }>;

export function ChartFigure(props: { spec: ChartSpec; citations: ChartCitations; scheme: ColorScheme; print?: boolean; width?: number; height?: number; tableOpen?: boolean }) {
  const { spec, citations, scheme, print = false } = props;
  const width = props.width ?? 640;
  const height = props.height ?? 300;
  const holder = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<ChartPoint | null>(null);
  const plot = usePlotChart();

  useLayoutEffect(() => {
    const target = holder.current;
    if (!target || plot === null) return;
    const drawn: DrawnChart = plot.drawChart(spec, { width, height, palette: chartPalette(print ? 'light' : scheme), interactive: !print });
    const onInput = () => setHover(drawn.value ?? null);
    drawn.addEventListener('input', onInput);
    target.replaceChildren(drawn);
    return () => {
      drawn.removeEventListener('input', onInput);
      drawn.remove();
    };
  }, [plot, spec, scheme, print, width, height]);

  const chips = (ids: readonly string[]) =>
    ids.map((id) => {
      const entry = citations.get(id);
      return entry ? <CitationChip key={id} citation={citationView(entry.citation)} marker={String(entry.number)} /> : null;
    });

  return (
    <figure className={`chart${print ? ' chart--print' : ''}`} data-testid={`chart-${spec.id}`}>
      <figcaption className="chart__caption">
        <strong>{spec.title}</strong>
        <span className="chart__legend muted">{spec.subtitle}</span>
      </figcaption>
      <div className="chart__body">
        {/* The SVG names itself (aria-label: the title; aria-description: the alt text); the table beside it holds the numbers. */}
        <div className="chart__plot" ref={holder} />
        {!print && (
          <div className="chart__hover" aria-live="polite" data-testid="chart-hover">
            {hover ? (
              <>
                <strong>{hover.label}</strong>
                {hover.details.map((line) => (
                  <span key={line}>{line}</span>
                ))}
                <span className="chart__chips">{chips(hover.citationIds)}</span>
              </>
            ) : (
              <span className="muted">Point at a sale to see it and its source.</span>
            )}
          </div>
        )}
      </div>
      {spec.note && <p className="chart__note muted">{spec.note}</p>}
      <details className="chart__table" open={print || props.tableOpen}>
        <summary>Table of the chart ({spec.table.rows.length} rows)</summary>
        <table className="comps-table comps-table--plain" aria-label={spec.table.caption}>
          <thead>
            <tr>
              {spec.table.columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
              <th scope="col">Sources</th>
            </tr>
          </thead>
          <tbody>
            {spec.table.rows.map((row) => (
              <tr key={row.id}>
                {row.cells.map((cell, at) => (at === 0 ? <th key={at} scope="row">{cell}</th> : <td key={at}>{cell}</td>))}
                <td>{print ? row.citationIds.map((id) => citations.get(id)?.number).filter((n) => n !== undefined).join(', ') : chips(row.citationIds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
