// A button whose work runs a while (an export): it stays focusable while busy (aria-disabled, presses
// ignored) so the focus is still on it when the work ends; a disabled button would drop the focus to
// the page body.
import type { ButtonHTMLAttributes } from 'react';

export function BusyButton({
  busy,
  disabled = false,
  onClick,
  ...rest
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'onClick' | 'aria-disabled'> & { busy: boolean; onClick: () => void }) {
  return (
    <button
      {...rest}
      type="button"
      disabled={disabled}
      aria-disabled={busy || undefined}
      onClick={() => {
        if (!busy) onClick();
      }}
    />
  );
}
