// Ctrl+K from any view: the find box in a dialog over what is on screen. Escape (or choosing a
// candidate) closes it and gives the focus back where it was.
import { useModalDialog } from '../../components/Dialog.tsx';
import { FindBox } from './FindBox.tsx';
import { useFindStore } from './find-store.ts';

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);
export const findShortcutText = isMac ? '⌘K' : 'Ctrl+K';

export function FindPalette() {
  const open = useFindStore((state) => state.paletteOpen);
  const close = useFindStore((state) => state.closePalette);
  const dialogRef = useModalDialog(open);

  return (
    <dialog ref={dialogRef} className="confirm-dialog find-palette" aria-labelledby="find-palette-title" onClose={close} onCancel={close}>
      <div className="find-palette__head">
        <h2 id="find-palette-title">Find a property</h2>
        <span className="muted">Escape closes</span>
      </div>
      {open && <FindBox onClose={close} autoFocus />}
    </dialog>
  );
}

/** The box as it sits at the top of the Search view. */
export function FindBar() {
  return (
    <div className="find-bar">
      <FindBox />
    </div>
  );
}
