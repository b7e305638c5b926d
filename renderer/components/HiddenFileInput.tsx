// A file input kept out of sight and out of the tab order, opened by a visible button
// (`inputRef.current?.click()`): the button says what it is for, the input only carries the choice.
// Its value is cleared after each choice, so choosing the same file again is still a change.
import type { RefObject } from 'react';

export function HiddenFileInput({
  inputRef,
  accept,
  label,
  onFiles,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  accept: string;
  label: string;
  onFiles: (files: FileList | null) => void;
}) {
  return (
    <input
      ref={inputRef}
      type="file"
      accept={accept}
      className="visually-hidden"
      aria-label={label}
      tabIndex={-1}
      onChange={(event) => {
        onFiles(event.target.files);
        event.target.value = '';
      }}
    />
  );
}
