// How a chip's popover is left, the same for every chip: a pointer press outside the chip closes it;
// Escape closes it and nothing else, and gives the focus back to the chip. Escape is taken on the
// window in the capture phase, before any element or page handler sees it, and stopped there: a
// handler further on that looked for an open popover could find it already gone (React re-renders
// between listeners of a real key press) and go back out of the record as well.
import { useEffect, type RefObject } from 'react';

/** While `open`: `onClose(false)` on a press outside `rootRef`, `onClose(true)` on Escape (refocus the chip). */
export function useDismiss(rootRef: RefObject<HTMLElement | null>, open: boolean, onClose: (refocus: boolean) => void): void {
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) onClose(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      onClose(true);
    };
    document.addEventListener('pointerdown', onPointer);
    window.addEventListener('keydown', onKey, { capture: true });
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      window.removeEventListener('keydown', onKey, { capture: true });
    };
  }, [rootRef, open, onClose]);
}
