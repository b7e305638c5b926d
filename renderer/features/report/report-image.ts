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

/**
 * Pictures drawn in this page, by drawing function and spec: the same report exported again (a comment
 * changed, a typo fixed) reuses its map and graph rather than drawing them again in software WebGL. A
 * picture is a function of its spec and the app's own map files, so an unchanged spec is the same
 * picture. Only drawn pictures are kept (a failure is tried again), the last few of each kind.
 */
let drawnPictures = new WeakMap<object, Map<string, object>>();
const PICTURES_KEPT = 4;

/** Forgets every picture drawn (tests start each from an empty page). */
export function forgetDrawnPictures(): void {
  drawnPictures = new WeakMap();
}

function keptPicture<Ready extends object>(draw: object, key: string): ReportImageState<Ready> | undefined {
  return drawnPictures.get(draw)?.get(key) as ReportImageState<Ready> | undefined;
}

function keepPicture(draw: object, key: string, image: ReportImageState<object>): void {
  if (image.status !== 'ready') return;
  const kept = drawnPictures.get(draw) ?? new Map<string, object>();
  kept.delete(key);
  kept.set(key, image);
  while (kept.size > PICTURES_KEPT) kept.delete(kept.keys().next().value as string);
  drawnPictures.set(draw, kept);
}

/** The spec's picture, redrawn when the spec changes; null when there is nothing to draw. */
export function useReportImage<Spec, Ready extends object>(
  spec: Spec | null,
  /** A module-level function (stable), so only the spec's content decides a redraw. */
  draw: (spec: Spec) => Promise<ReportImageState<Ready>>,
): ReportImageState<Ready> | null {
  // Keyed by the spec's content: a refetched document with the same picture is not drawn again.
  const key = spec === null ? null : JSON.stringify(spec);
  const kept = key === null ? undefined : keptPicture<Ready>(draw, key);
  const [drawn, setDrawn] = useState<{ key: string; image: ReportImageState<Ready> } | null>(null);
  useEffect(() => {
    if (key === null || keptPicture(draw, key) !== undefined) return;
    let cancelled = false;
    void draw(JSON.parse(key) as Spec).then((image) => {
      keepPicture(draw, key, image);
      if (!cancelled) setDrawn({ key, image });
    });
    return () => {
      cancelled = true;
    };
  }, [key, draw]);
  if (key === null) return null;
  if (kept !== undefined) return kept;
  return drawn?.key === key ? drawn.image : { status: 'loading' };
}
