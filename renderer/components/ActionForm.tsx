// A form whose submit (Enter in a field, or its submit button) runs an action in place: the
// browser's own submit, which would reload the window, never happens.
import type { FormHTMLAttributes } from 'react';

export function ActionForm({ onSubmit, ...props }: Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> & { onSubmit: () => void }) {
  return (
    <form
      {...props}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    />
  );
}
