// The response cache: what it holds, how long free answers live, its bounds, and clearing it.
// Paid answers never expire by age (buying them again would cost money), so clearing asks first.
import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CacheStatus } from '../../../shared/ipc.ts';
import { callPlat } from '../../platform/plat.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import {
  bytesToMebibytesText,
  formatBytes,
  hitRate,
  parseMaxEntries,
  parseMaxMebibytes,
  parseTtl,
  ttlToForm,
  TTL_UNITS,
  type TtlUnit,
} from './settings-model.ts';
import { invalidatePricing, useCacheStatus } from '../../platform/core-queries.ts';
import { cacheStatusQueryKey } from '../../platform/query-keys.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { Outcome, SettingsSection } from './settings-ui.tsx';
import { Field, fieldIds, TextField } from '../../components/TextField.tsx';
import { ActionForm } from '../../components/ActionForm.tsx';
import { SelectOptions } from '../../components/SelectOptions.tsx';
import { formatCount } from '../../../shared/format/number.ts';

export function CacheSettings() {
  const cache = useCacheStatus();
  return (
    <SettingsSection
      id="settings-cache"
      title="Cache"
      description="Answers Plat already has are shown again for free. Answers you paid for never expire by age: they leave only when the cache is full or cleared, so a record is never bought twice by accident."
      reads={cache}
    >
      {cache.isPending && <p className="muted" role="status">Reading the cache…</p>}
      {cache.data && (
        <>
          <CacheStats status={cache.data} />
          <CachePolicyForm status={cache.data} />
          <ClearCache status={cache.data} />
        </>
      )}
    </SettingsSection>
  );
}

function CacheStats({ status }: { status: CacheStatus }) {
  return (
    <dl className="settings-stats" data-testid="cache-stats">
      <div>
        <dt>Answers kept</dt>
        <dd data-testid="cache-entries">{formatCount(status.entries)}</dd>
      </div>
      <div>
        <dt>Size</dt>
        <dd>
          {formatBytes(status.bytes)} <span className="muted">of {formatBytes(status.maxBytes)}</span>
        </dd>
      </div>
      <div>
        <dt>Hits</dt>
        <dd>{formatCount(status.hits)}</dd>
      </div>
      <div>
        <dt>Misses</dt>
        <dd>{formatCount(status.misses)}</dd>
      </div>
      <div>
        <dt>Hit rate</dt>
        <dd>{hitRate(status.hits, status.misses)}</dd>
      </div>
    </dl>
  );
}

/** One of the cache's bounds, typed as a whole number. */
function WholeNumberField(props: { id: string; label: string; error: string | null; value: string; onChange: (text: string) => void }) {
  return (
    <TextField
      id={props.id}
      label={props.label}
      error={props.error}
      inputClassName="settings-input--number"
      inputMode="numeric"
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
    />
  );
}

function CachePolicyForm({ status }: { status: CacheStatus }) {
  const queryClient = useQueryClient();
  const initialTtl = ttlToForm(status.ttlSeconds);
  const [ttlAmount, setTtlAmount] = useState(initialTtl.amount);
  const [ttlUnit, setTtlUnit] = useState<TtlUnit>(initialTtl.unit);
  const [entriesText, setEntriesText] = useState(String(status.maxEntries));
  const [sizeText, setSizeText] = useState(bytesToMebibytesText(status.maxBytes));
  const [errors, setErrors] = useState<{ ttl?: string; entries?: string; size?: string }>({});
  const [note, setNote] = useState<string | null>(null);
  const ids = { ttl: useId(), unit: useId(), entries: useId(), size: useId() };

  const save = useMutation({
    mutationFn: (policy: { ttlSeconds: number; maxEntries: number; maxBytes: number }) => callPlat('setCachePolicy', policy),
    onSuccess: (next) => queryClient.setQueryData(cacheStatusQueryKey, next),
  });

  const submit = () => {
    const ttl = parseTtl(ttlAmount, ttlUnit);
    const entries = parseMaxEntries(entriesText);
    const size = parseMaxMebibytes(sizeText);
    setErrors({
      ...(ttl.ok ? {} : { ttl: ttl.error }),
      ...(entries.ok ? {} : { entries: entries.error }),
      ...(size.ok ? {} : { size: size.error }),
    });
    if (!ttl.ok || !entries.ok || !size.ok) return;
    setNote(null);
    save.mutate(
      { ttlSeconds: ttl.value, maxEntries: entries.value, maxBytes: size.value },
      { onSuccess: (next) => setNote(next.entries < status.entries ? `Saved. ${status.entries - next.entries} answers were removed to fit.` : 'Saved.') },
    );
  };

  const changed = (apply: (text: string) => void) => (text: string) => {
    apply(text);
    setNote(null);
  };
  const ttlIds = fieldIds(ids.ttl, { hint: true, error: errors.ttl !== undefined });

  return (
    <ActionForm
      className="settings-form stack gap-3"
      aria-label="Cache policy"
      onSubmit={submit}
    >
      <div className="settings-row">
        <Field id={ids.ttl} label="Keep free answers for" error={errors.ttl ?? null} hint="Paid answers are kept regardless.">
          <span className="settings-inline">
            <input
              id={ids.ttl}
              className="input settings-input--number"
              type="text"
              inputMode="numeric"
              autoComplete="off"
              value={ttlAmount}
              aria-invalid={errors.ttl !== undefined}
              aria-describedby={ttlIds.describedBy}
              onChange={(event) => changed(setTtlAmount)(event.target.value)}
            />
            <select
              id={ids.unit}
              className="input"
              aria-label="Unit"
              value={ttlUnit}
              onChange={(event) => changed((text) => setTtlUnit(text as TtlUnit))(event.target.value)}
            >
              <SelectOptions items={Object.keys(TTL_UNITS) as TtlUnit[]} label={(unit) => unit} />
            </select>
          </span>
        </Field>
        <WholeNumberField id={ids.entries} label="Most answers kept" error={errors.entries ?? null} value={entriesText} onChange={changed(setEntriesText)} />
        <WholeNumberField id={ids.size} label="Largest size (MB)" error={errors.size ?? null} value={sizeText} onChange={changed(setSizeText)} />
      </div>
      <div className="settings-actions cluster">
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save cache policy'}
        </button>
        {note && <Outcome tone="ok">{note}</Outcome>}
      </div>
      {save.isError && <ErrorNotice error={save.error} />}
    </ActionForm>
  );
}

function ClearCache({ status }: { status: CacheStatus }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const clear = useMutation({
    mutationFn: () => callPlat('clearCache', {}),
    onSuccess: (next) => {
      queryClient.setQueryData(cacheStatusQueryKey, next);
      // "Cached · free" prices are no longer true.
      void invalidatePricing(queryClient);
    },
  });
  return (
    <div className="settings-actions settings-actions--separate cluster">
      <button type="button" className="button" disabled={clear.isPending || status.entries === 0} onClick={() => setConfirming(true)}>
        {clear.isPending ? 'Clearing…' : 'Clear cache…'}
      </button>
      {status.entries === 0 && !note && <span className="muted settings-actions__note">The cache is empty.</span>}
      {note && <Outcome tone="ok">{note}</Outcome>}
      {clear.isError && <ErrorNotice error={clear.error} />}
      <ConfirmDialog
        open={confirming}
        title="Clear the cache?"
        confirmLabel={`Clear ${formatCount(status.entries)} ${status.entries === 1 ? 'answer' : 'answers'}`}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          const before = status.entries;
          clear.mutate(undefined, { onSuccess: () => setNote(`Cleared ${formatCount(before)} cached ${before === 1 ? 'answer' : 'answers'}.`) });
        }}
      >
        <p>
          Plat forgets {formatCount(status.entries)} {status.entries === 1 ? 'answer' : 'answers'} ({formatBytes(status.bytes)}). Answers
          you paid for will cost money again the next time you ask for them. The spend ledger is not touched.
        </p>
      </ConfirmDialog>
    </div>
  );
}
