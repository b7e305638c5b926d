// A dialog gives the focus back to the control that opened it when it closes (Escape or Cancel),
// unless what it did already put the focus somewhere else.
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { ConfirmDialog } from './Dialog.tsx';
import { setUpViewTests } from '../platform/view-test-kit.tsx';

setUpViewTests();

function Opener({ elsewhere = false }: { elsewhere?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Delete…
      </button>
      <input aria-label="Elsewhere" />
      <ConfirmDialog
        open={open}
        title="Delete it?"
        confirmLabel="Delete"
        onConfirm={() => {
          if (elsewhere) screen.getByLabelText('Elsewhere').focus();
          setOpen(false);
        }}
        onCancel={() => setOpen(false)}
      >
        <p>It cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}

describe('useModalDialog', () => {
  it('puts the focus back on the control that opened the dialog once it closes', () => {
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Delete…' });
    opener.focus();
    act(() => fireEvent.click(opener));
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    cancel.focus();
    act(() => fireEvent.click(cancel));
    expect(document.activeElement).toBe(opener);
  });

  it('leaves the focus where the dialog’s action put it', () => {
    render(<Opener elsewhere />);
    const opener = screen.getByRole('button', { name: 'Delete…' });
    opener.focus();
    act(() => fireEvent.click(opener));
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Delete' })));
    expect(document.activeElement).toBe(screen.getByLabelText('Elsewhere'));
  });
});
