// Enter in a text field of a search form runs the search, through the same priced button a click
// would press (so its confirmation and budget refusals still apply). Selects, buttons and text
// areas keep Enter for themselves.
import type { KeyboardEvent } from 'react';

export function submitOnEnter(event: KeyboardEvent, actions: HTMLElement | null): void {
  if (event.key !== 'Enter' || event.shiftKey || event.altKey || event.defaultPrevented) return;
  const target = event.target as HTMLElement;
  if (target.tagName !== 'INPUT' || (target as HTMLInputElement).type === 'checkbox' || (target as HTMLInputElement).type === 'radio') return;
  event.preventDefault();
  const button = actions?.querySelector<HTMLButtonElement>('button');
  if (button && !button.disabled) button.click();
}
