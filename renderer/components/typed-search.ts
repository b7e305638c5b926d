// A search typed into a field and bought with its ChargeButton (the find box, the owner search): the
// text is priced once the person pauses, and Enter goes through the same button as a click (price,
// confirmation, caps), for exactly the text typed.
import { useEffect, useRef, useState } from 'react';
import type { CostPreview } from '../../shared/ipc.ts';

/** The value once the person has paused typing for `delayMs`; `flush` takes the current value at once (Enter). */
export function useSettled<T>(value: T, delayMs: number): [T, () => void] {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return [settled, () => setSettled(value)];
}

/**
 * What Enter does: press the button (`press`) at once when the typed text has settled and its price is
 * known, else settle it now and press once its price is known. A price a cap blocks presses nothing.
 * `request` is what the settled text would buy (null: nothing to buy).
 */
export function useEnterToCharge(props: { typed: string; settled: string; flush: () => void; request: unknown; price: CostPreview | undefined; press: () => void }) {
  const { typed, settled, request, price, press } = props;
  const pending = useRef(false);
  useEffect(() => {
    if (!pending.current || settled !== typed || !request || !price) return;
    pending.current = false;
    if (!price.blockedBy) press();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `press` finds the button when it runs; a new one each render changes nothing
  }, [settled, typed, request, price]);
  return () => {
    if (settled === typed && price) {
      if (!price.blockedBy) press();
      return;
    }
    pending.current = true;
    props.flush();
  };
}
