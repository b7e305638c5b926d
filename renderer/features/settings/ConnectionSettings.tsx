// Service connection: the bundled local sample or a live base URL. After switching to a live
// service Plat checks it at once with a free catalog call (when a key is set), so an address that
// does not answer is reported here rather than at the first paid call.
import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AppInfo, IpcRequest, ServiceConnection } from '../../../shared/ipc.ts';
import { callPlat } from '../../platform/plat.ts';
import { appInfoQueryKey } from '../../app/StatusLine.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { parseLiveUrl } from './settings-model.ts';
import { invalidatePricing, recordConnectionCheck, useConnectionCheck, useKeyStatus, type ConnectionCheck } from './settings-queries.ts';
import { CheckOutcome, Field, fieldIds, Outcome, SettingsSection } from './settings-ui.tsx';

const STATE_WORDS: Record<ServiceConnection['state'], string> = {
  starting: 'Starting',
  checking: 'Checking…',
  ready: 'Ready',
  unreachable: 'Not reachable',
  failed: 'Not available',
};

export function ConnectionSettings() {
  // The status line keeps this query live from serviceConnectionChanged.
  const info = useQuery({ queryKey: appInfoQueryKey, queryFn: () => callPlat('getAppInfo', {}) });
  const service = info.data?.service;
  return (
    <SettingsSection
      id="settings-connection"
      title="Service connection"
      description="Where Plat sends its calls: the bundled local sample (free, public-record sample data) or a live Property Records Service."
    >
      {info.isError && <ErrorNotice error={info.error} onRetry={() => void info.refetch()} />}
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
  const check = useConnectionCheck().data;
  // The core calls a live connection ready once configured; a check made since says more.
  const checked = service.mode === 'live' && check?.baseUrl === service.baseUrl ? check : null;
  const state = checked && !checked.ok ? 'failed' : service.state;
  const words = checked ? (checked.ok ? 'Answering' : 'Last check failed') : STATE_WORDS[service.state];
  return (
    <div className="settings-current" data-testid="connection-current">
      <span className={`settings-dot settings-dot--${state}`} aria-hidden="true" />
      <span>
        <strong>{service.label}</strong> <span className="muted">· {words}</span>
        {service.baseUrl && <span className="mono settings-current__url"> {service.baseUrl}</span>}
        {service.detail && <span className="settings-current__detail">{service.detail}</span>}
      </span>
    </div>
  );
}

function ConnectionForm({ service }: { service: ServiceConnection }) {
  const queryClient = useQueryClient();
  const keyStatus = useKeyStatus();
  const [mode, setMode] = useState<ServiceConnection['mode']>(service.mode);
  const [url, setUrl] = useState(service.mode === 'live' ? service.baseUrl : '');
  const [urlError, setUrlError] = useState<string | null>(null);
  const ids = { local: useId(), live: useId(), url: useId() };

  // The key test is a free catalog call: it proves the address answers and the key is accepted.
  const checkLive = useMutation({
    mutationFn: async (baseUrl: string): Promise<ConnectionCheck> => {
      const result = await callPlat('testApiKey', {});
      return { baseUrl, ok: result.ok, message: result.message };
    },
    onSuccess: (check) => recordConnectionCheck(queryClient, check),
  });
  const check = checkLive.data ?? null;

  const connect = useMutation({
    mutationFn: (request: IpcRequest<'setConnection'>) => callPlat('setConnection', request),
    onSuccess: (next) => {
      queryClient.setQueryData<AppInfo>(appInfoQueryKey, (previous) => (previous ? { ...previous, service: next } : previous));
      // Answers and prices of one service never stand for another's.
      queryClient.removeQueries({ queryKey: ['service'] });
      recordConnectionCheck(queryClient, null);
      void invalidatePricing(queryClient);
      if (next.mode === 'live' && keyStatus.data?.configured) {
        checkLive.mutate(next.baseUrl);
      }
    },
  });

  const submit = () => {
    checkLive.reset();
    if (mode === 'local-sample') {
      connect.mutate({ mode: 'local-sample' });
      return;
    }
    const parsed = parseLiveUrl(url);
    if (!parsed.ok) {
      setUrlError(parsed.error);
      return;
    }
    setUrlError(null);
    connect.mutate({ mode: 'live', baseUrl: parsed.value });
  };

  const unchanged = mode === service.mode && (mode === 'local-sample' || url.trim().replace(/\/+$/, '') === service.baseUrl);
  const urlIds = fieldIds(ids.url, { hint: true, error: urlError !== null });

  return (
    <form
      className="settings-form"
      aria-label="Choose the service"
      // Plat's own message says what is wrong with an address; the browser's bubble would not.
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <fieldset className="settings-choice">
        <legend className="settings-field__label">Connect to</legend>
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
        <Field id={ids.url} label="Base address" wide error={urlError} hint="As given in the developer portal, e.g. https://records.example.com. Calls then need your API key (below).">
          <input
            id={ids.url}
            className="settings-input settings-input--url"
            type="url"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            placeholder="https://"
            value={url}
            aria-invalid={urlError !== null}
            aria-describedby={urlIds.describedBy}
            onChange={(event) => {
              setUrl(event.target.value);
              if (urlError) setUrlError(null);
            }}
          />
        </Field>
      )}
      <div className="settings-actions">
        <button type="submit" className="button button--primary" disabled={connect.isPending || unchanged}>
          {connect.isPending ? 'Connecting…' : mode === 'live' ? 'Connect to live service' : 'Use the local sample'}
        </button>
        {unchanged && <span className="muted settings-actions__note">This is the connection in use.</span>}
      </div>
      {connect.isError && <ErrorNotice error={connect.error} />}
      {checkLive.isPending && (
        <Outcome tone="info" testId="connection-check">
          Checking the live service with a free catalog call…
        </Outcome>
      )}
      {checkLive.isError && <ErrorNotice error={checkLive.error} />}
      {check && !checkLive.isPending && (
        <CheckOutcome
          ok={check.ok}
          title={check.ok ? 'Connected.' : `${check.baseUrl} did not answer as expected.`}
          message={check.message}
          testId="connection-check"
        />
      )}
      {service.mode === 'live' && keyStatus.data && !keyStatus.data.configured && !connect.isPending && (
        <Outcome tone="warning" testId="connection-needs-key">
          Add your API key below, then choose <strong>Test key</strong> to check this connection.
        </Outcome>
      )}
    </form>
  );
}
