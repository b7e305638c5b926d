// The <option>s of a <select> built from a list: one per item, keyed and valued by the item (or by
// what `value` picks out of it), showing its words. The <select> itself and any fixed first option
// ("Any area", "No project") stay with the caller, which knows its label and what a change does.

import type { ReactNode } from 'react';

type OptionValue = string | number;

/** A list of plain values: each is its own value. */
export function SelectOptions<T extends OptionValue>(props: { items: readonly T[]; label: (item: T) => string }): ReactNode;
/** A list of records: `value` picks out the value. */
export function SelectOptions<T>(props: { items: readonly T[]; value: (item: T) => OptionValue; label: (item: T) => string }): ReactNode;
export function SelectOptions<T>(props: { items: readonly T[]; value?: (item: T) => OptionValue; label: (item: T) => string }): ReactNode {
  const valueOf = props.value ?? ((item: T) => item as OptionValue);
  return props.items.map((item) => {
    const value = valueOf(item);
    return (
      <option key={value} value={value}>
        {props.label(item)}
      </option>
    );
  });
}
