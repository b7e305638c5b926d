// A reason dialog records nothing until its reason passes the check: the problem is said under the
// field, a good reason is recorded as checked (trimmed), and each opening starts afresh.
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { ReasonDialog, type ReasonCheck } from './ReasonDialog.tsx';
import { setUpViewTests } from '../platform/view-test-kit.tsx';

setUpViewTests();

const check = (text: string): ReasonCheck => (text.trim() === '' ? { ok: false, error: 'Say why.' } : { ok: true, value: text.trim() });

function Opener({ onAct, refocusOnProblem }: { onAct: (reason: string) => void; refocusOnProblem?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Record…
      </button>
      <ReasonDialog
        open={open}
        title="Record it"
        reasonLabel="Reason (required)"
        check={check}
        onAct={(reason) => {
          onAct(reason);
          setOpen(false);
        }}
        act={{ label: 'Record', busyLabel: 'Recording…' }}
        onCancel={() => setOpen(false)}
        refocusOnProblem={refocusOnProblem}
      >
        <p>What is recorded.</p>
      </ReasonDialog>
    </>
  );
}

describe('ReasonDialog', () => {
  it('says the problem and records nothing without a reason; records the checked reason', () => {
    const onAct = vi.fn();
    render(<Opener onAct={onAct} />);
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Record…' })));
    const dialog = screen.getByRole('dialog', { name: 'Record it' });
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Record' })));
    expect(screen.getByRole('alert').textContent).toBe('Say why.');
    expect(screen.getByLabelText('Reason (required)').getAttribute('aria-invalid')).toBe('true');
    expect(onAct).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Reason (required)'), { target: { value: '  Checked on site.  ' } });
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Record' })));
    expect(onAct).toHaveBeenCalledWith('Checked on site.');
    expect(dialog.hasAttribute('open')).toBe(false);
  });

  it('starts each opening with no reason and no problem', () => {
    render(<Opener onAct={() => {}} />);
    const opener = screen.getByRole('button', { name: 'Record…' });
    act(() => fireEvent.click(opener));
    fireEvent.change(screen.getByLabelText('Reason (required)'), { target: { value: ' ' } });
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Record' })));
    expect(screen.queryByRole('alert')).not.toBeNull();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Cancel' })));
    act(() => fireEvent.click(opener));
    expect((screen.getByLabelText('Reason (required)') as HTMLTextAreaElement).value).toBe('');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('puts the focus back on the reason when it is refused, if asked to', () => {
    render(<Opener onAct={() => {}} refocusOnProblem />);
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Record…' })));
    const record = screen.getByRole('button', { name: 'Record' });
    record.focus();
    act(() => fireEvent.click(record));
    expect(document.activeElement).toBe(screen.getByLabelText('Reason (required)'));
  });
});
