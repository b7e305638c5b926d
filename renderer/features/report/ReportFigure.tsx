// A section's picture, the comparables' map or the title research's graph: the image once drawn, a line
// while it draws, a note (and what stands in for the picture) when it cannot be drawn, then the caption.
// Each figure keeps its own class block (`report-map`, `report-graph`), its test id and print rules.
import type { ReactNode } from 'react';
import type { ReportImageState } from './report-image.ts';
import './report-figure.css';

export function ReportFigure({
  block,
  image,
  alt,
  pixelsPerPoint = 1,
  heading,
  labelledBy,
  loading,
  failed,
  caption,
}: {
  block: 'report-map' | 'report-graph';
  image: ReportImageState<{ dataUrl: string; widthPx: number; heightPx: number }>;
  alt: string;
  /** Drawn at 2× a figure is laid out at half its pixels, so it prints sharp. */
  pixelsPerPoint?: number;
  heading?: ReactNode;
  labelledBy?: string;
  loading: string;
  failed: (message: string) => ReactNode;
  caption: string;
}) {
  return (
    <figure className={`${block} ${block}--${image.status}`} data-testid={block} aria-labelledby={labelledBy}>
      {heading}
      {image.status === 'ready' && (
        <img className={`${block}__image`} src={image.dataUrl} alt={alt} width={image.widthPx / pixelsPerPoint} height={image.heightPx / pixelsPerPoint} />
      )}
      {image.status === 'loading' && (
        <p className={`${block}__loading muted`} role="status">
          {loading}
        </p>
      )}
      {image.status === 'failed' && failed(image.message)}
      <figcaption className={`${block}__caption`}>{caption}</figcaption>
    </figure>
  );
}
