// An entity id, secondary to the entity's name: shown small and copyable with a button, so a researcher
// can quote it without reading it as the name.
import { useEffect, useState } from 'react';
import { shortId } from '../../../shared/graph/relations.ts';

export function CopyId({ id, whose, full = false }: { id: string; whose: string; full?: boolean }) {
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  useEffect(() => {
    if (copied === null) return;
    const timer = window.setTimeout(() => setCopied(null), 1800);
    return () => window.clearTimeout(timer);
  }, [copied]);
  const copy = () => {
    navigator.clipboard.writeText(id).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );
  };
  return (
    <span className="copy-id">
      <code className="copy-id__text" title={id} data-testid={full ? 'entity-id' : undefined}>
        {full ? id : shortId(id)}
      </code>
      <button type="button" className="button button--small copy-id__button" onClick={copy} aria-label={`Copy id of ${whose}`} title={`Copy ${id}`}>
        Copy id
      </button>
      {/* A live region without the status role: a list of links carries one per id, and the list's own status is its count. */}
      <span aria-live="polite" className="copy-id__status">
        {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy failed: select the id and copy it' : ''}
      </span>
    </span>
  );
}
