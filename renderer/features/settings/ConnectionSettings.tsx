// Service connection: the bundled local sample or a live base URL. The core checks a connection
// itself when it is set (a free catalog call) and reports what it found, so this section shows
// exactly that state (Checking…, Ready, Not reachable, Not available), never one of its own.
// Addresses are checked by the core's rule before they are sent; plain http:// to another computer
// is sent only after the person agrees that the key travels unencrypted.
import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AppInfo, IpcRequest, ServiceConnection } from '../../../shared/ipc.ts';
import { callPlat } from '../../platform/plat.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { connectionStateWords } from '../../app/status-model.ts';
import { parseLiveUrl } from './settings-model.ts';
import { invalidatePricing, useAppInfo, useKeyStatus } from '../../platform/core-queries.ts';
import { appInfoQueryKey, serviceQueryScope } from '../../platform/query-keys.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { Outcome, SettingsSection } from './settings-ui.tsx';
import { TextField } from '../../components/TextField.tsx';
import { ActionForm } from '../../components/ActionForm.tsx';

export function ConnectionSettings() {
  // The status line keeps this query live from serviceConnectionChanged.
  const info = useAppInfo();
  const service = info.data?.service;
  return (
    <SettingsSection
      id="settings-connection"
      title="Service connection"
      description="Where Plat sends its calls: the bundled local sample (free, public-record sample data) or a live Property Records Service."
      reads={info}
    >
      {service ? (
        <>
          <CurrentConnection service={service} />
          <ConnectionForm service={service} />
        </>
      ) : (
        !info.isError && <p className="muted" role="status">Reading the connection…</p>
      )}
    </SettingsSection>
  );
}

function CurrentConnection({ service }: { service: ServiceConnection }) {
  const queryClient = useQueryClient();
  const keyStatus = useKeyStatus();
  // What the core last checked, never assumed: a live address is "Ready" only once it has answered.
  const words = connectionStateWords(service);
  // The key test is the core's free check (a catalog call); the core updates the state from its outcome.
  const recheck = useMutation({
    mutationFn: () => callPlat('testApiKey', {}),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: appInfoQueryKey }),
  });
  const canRecheck = service.mode === 'live' && keyStatus.data?.configured === true && (service.state === 'unreachable' || service.state === 'failed');
  return (
    <div className="settings-current" data-testid="connection-current">
      <span className={`status-dot status-dot--${words.tone} settings-dot`} aria-hidden="true" />
      <span className="settings-current__text">
        <strong>{service.label}</strong> <span className={`settings-current__state settings-current__state--${words.tone}`}>· {words.state}</span>
        {service.baseUrl && <span className="mono settings-current__url"> {service.baseUrl}</span>}
        {service.detail && <span className="settings-current__detail">{service.detail}</span>}
      </span>
      {canRecheck && (
        <button type="button" className="button button--small" disabled={recheck.isPending} onClick={() => recheck.mutate()}>
          {recheck.isPending ? 'Checking…' : 'Check again'}
        </button>
      )}
    </div>
  );
}

function ConnectionForm({ service }: { service: ServiceConnection }) {
  const queryClient = useQueryClient();
  const keyStatus = useKeyStatus();
  const [mode, setMode] = useState<ServiceConnection['mode']>(service.mode);
  const [url, setUrl] = useState(service.mode === 'live' ? service.baseUrl : '');
  const [urlError, setUrlError] = useState<string | null>(null);
  /** The address waiting for the person's consent to plain http:// (the key would travel unencrypted). */
  const [insecureUrl, setInsecureUrl] = useState<string | null>(null);
  const ids = { local: useId(), live: useId(), url: useId() };

  const connect = useMutation({
    mutationFn: (request: IpcRequest<'setConnection'>) => callPlat('setConnection', request),
    onSuccess: (next) => {
      // The core checks the new connection itself (checking → ready, unreachable or failed) and
      // pushes each state; this answer is the state when it replied.
      queryClient.setQueryData<AppInfo>(appInfoQueryKey, (previous) => (previous ? { ...previous, service: next } : previous));
      // Answers and prices of one service never stand for another's.
      queryClient.removeQueries({ queryKey: serviceQueryScope });
      void invalidatePricing(queryClient);
    },
  });

  const submit = () => {
    if (mode === 'local-sample') {
      connect.mutate({ mode: 'local-sample' });
      return;
    }
    const parsed = parseLiveUrl(url);
    if (!parsed.ok) {
      setUrlError(parsed.error);
      // Plain http:// to another computer is the person's call to make, explicitly.
      if (parsed.needsInsecureConsent) setInsecureUrl(url);
      return;
    }
    setUrlError(null);
    connect.mutate({ mode: 'live', baseUrl: parsed.value });
  };

  const connectInsecure = () => {
    const text = insecureUrl;
    setInsecureUrl(null);
    if (text === null) return;
    const parsed = parseLiveUrl(text, { allowInsecure: true });
    if (!parsed.ok) {
      setUrlError(parsed.error);
      return;
    }
    setUrlError(null);
    connect.mutate({ mode: 'live', baseUrl: parsed.value, allowInsecure: true });
  };

  const asTyped = parseLiveUrl(url, { allowInsecure: true });
  const unchanged = mode === service.mode && (mode === 'local-sample' || (asTyped.ok && asTyped.value === service.baseUrl));

  return (
    <ActionForm
      className="settings-form stack gap-3"
      aria-label="Choose the service"
      // Plat's own message says what is wrong with an address; the browser's bubble would not.
      noValidate
      onSubmit={submit}
    >
      <fieldset className="settings-choice bare-fieldset stack gap-1">
        <legend className="field__label">Connect to</legend>
        <label className="settings-choice__option" htmlFor={ids.local}>
          <input id={ids.local} type="radio" name="connection-mode" checked={mode === 'local-sample'} onChange={() => setMode('local-sample')} />
          <span>
            Local sample service <span className="muted">— runs inside Plat on the bundled sample; no key, no real charges</span>
          </span>
        </label>
        <label className="settings-choice__option" htmlFor={ids.live}>
          <input id={ids.live} type="radio" name="connection-mode" checked={mode === 'live'} onChange={() => setMode('live')} />
          <span>
            Live service <span className="muted">— your account; calls are charged to your credit</span>
          </span>
        </label>
      </fieldset>
      {mode === 'live' && (
        <TextField
          id={ids.url}
          label="Base address"
          wide
          error={urlError}
          hint="As given in the developer portal, e.g. https://records.example.com. Calls then need your API key (below)."
          inputClassName="settings-input--url"
          type="url"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          placeholder="https://"
          value={url}
          onChange={(event) => {
            setUrl(event.target.value);
            if (urlError) setUrlError(null);
          }}
        />
      )}
      <div className="settings-actions cluster">
        <button type="submit" className="button button--primary" disabled={connect.isPending || unchanged}>
          {connect.isPending ? 'Connecting…' : mode === 'live' ? 'Connect to live service' : 'Use the local sample'}
        </button>
        {unchanged && <span className="muted settings-actions__note">This is the connection in use.</span>}
      </div>
      {connect.isError && <ErrorNotice error={connect.error} />}
      {service.state === 'checking' && (
        <Outcome tone="info" testId="connection-check">
          Checking {service.label} with a free catalog call…
        </Outcome>
      )}
      {service.mode === 'live' && keyStatus.data && !keyStatus.data.configured && !connect.isPending && (
        <Outcome tone="warning" testId="connection-needs-key">
          Add your API key below, then choose <strong>Test key</strong> to check this connection.
        </Outcome>
      )}
      <ConfirmDialog
        open={insecureUrl !== null}
        title="Send your API key unencrypted?"
        confirmLabel="Connect without encryption"
        onCancel={() => setInsecureUrl(null)}
        onConfirm={connectInsecure}
      >
        <p>
          This address starts with plain <span className="mono">http://</span> and is not on this computer: your API key and every answer
          would cross the network unencrypted, readable by anyone on the way. Use <span className="mono">https://</span> if the service offers
          it.
        </p>
      </ConfirmDialog>
    </ActionForm>
  );
}
