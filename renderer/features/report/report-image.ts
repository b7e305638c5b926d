// A report picture (the comparables map, the entity graph) drawn offscreen by its component's own
// renderer, for the screen and the print route alike. Drawing never rejects: a picture that cannot
// be drawn (no WebGL, missing files) or takes too long is a failed state with the reason in words,
// and the report prints the picture's table instead — the print route never waits forever.
import { useEffect, useState } from 'react';

export type ReportImageState<Ready> = { status: 'loading' } | ({ status: 'ready' } & Ready) | { status: 'failed'; message: string };

/** Well inside the printer's 30 s wait for the page, so a picture that never settles still leaves time to print its table. */
export const REPORT_IMAGE_TIMEOUT_MS = 12_000;

/** The promise, or a rejection saying it was not drawn in time. */
export function within<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it was not drawn within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Draws a picture within the time allowed; never rejects. */
export async function drawReportImage<Ready extends object>(draw: () => Promise<Ready>, timeoutMs: number): Promise<ReportImageState<Ready>> {
  try {
    return { status: 'ready', ...(await within(draw(), timeoutMs)) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { status: 'failed', message: reason.replace(/\.$/, '') };
  }
}

/** The spec's picture, redrawn when the spec changes; null when there is nothing to draw. */
export function useReportImage<Spec, Ready extends object>(
  spec: Spec | null,
  /** A module-level function (stable), so only the spec's content decides a redraw. */
  draw: (spec: Spec) => Promise<ReportImageState<Ready>>,
): ReportImageState<Ready> | null {
  // Keyed by the spec's content: a refetched document with the same picture is not drawn again.
  const key = spec === null ? null : JSON.stringify(spec);
  const [drawn, setDrawn] = useState<{ key: string; image: ReportImageState<Ready> } | null>(null);
  useEffect(() => {
    if (key === null) return;
    let cancelled = false;
    void draw(JSON.parse(key) as Spec).then((image) => {
      if (!cancelled) setDrawn({ key, image });
    });
    return () => {
      cancelled = true;
    };
  }, [key, draw]);
  if (key === null) return null;
  return drawn?.key === key ? drawn.image : { status: 'loading' };
}
