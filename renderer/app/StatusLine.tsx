import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { AppInfo } from '../../shared/ipc.ts';
import { plat } from '../platform/plat.ts';
import { useHostLink } from '../platform/host-link.ts';
import { CallProgressNotice, SpendMeter } from './SpendMeter.tsx';
import { useRefreshOnReconnect } from './HostLinkNotice.tsx';
import { connectionStateWords, hostLinkWords } from './status-model.ts';
import { appInfoQueryKey } from '../platform/query-keys.ts';
import { useAppInfo } from '../platform/core-queries.ts';

export function StatusLine() {
  const queryClient = useQueryClient();
  const info = useAppInfo();
  const link = useHostLink();
  useRefreshOnReconnect();

  useEffect(
    () =>
      plat().onServiceConnectionChanged((service) => {
        // Before app info has been read there is nothing to patch: read it whole instead.
        if (queryClient.getQueryData<AppInfo>(appInfoQueryKey)) {
          queryClient.setQueryData<AppInfo>(appInfoQueryKey, (previous) => (previous ? { ...previous, service } : previous));
        } else {
          void queryClient.invalidateQueries({ queryKey: appInfoQueryKey });
        }
      }),
    [queryClient],
  );

  // The link to the core comes first: with the host gone, the last known service state is not news.
  const linkWords = hostLinkWords(link);
  const service = linkWords ? undefined : info.data?.service;
  const words = service ? connectionStateWords(service) : null;
  const tone = linkWords?.tone ?? (info.isError ? 'down' : (words?.tone ?? 'pending'));
  const label = linkWords?.headline ?? (info.isError ? 'Cannot reach Plat’s core' : (service?.label ?? 'Connecting…'));
  return (
    // The footer is the page's contentinfo landmark, which may not also be a status: the live region sits inside it.
    <footer className="status-line">
      <div className="status-line__live" role="status" aria-live="polite">
        {/* status-line__dot--<tone> names the tone for whoever checks it (the tests); the look is the design's. */}
        <span className={`status-dot status-dot--${tone} status-line__dot--${tone}`} aria-hidden="true" data-testid="service-dot" />
        <span className="status-line__service" data-testid="service-label">
          {label}
        </span>
        {words && service?.state !== 'ready' && (
          <span className={`status-line__state status-line__state--${words.tone}`} data-testid="service-state">
            {words.state}
          </span>
        )}
        {service && <span className="status-line__url mono">{service.baseUrl}</span>}
        {service?.detail && (
          <span className="status-line__detail" title={service.detail}>
            {service.detail}
          </span>
        )}
        <CallProgressNotice />
        <span className="status-line__spacer" />
        <SpendMeter />
        {info.data && (
          <span className="status-line__runtime">
            {info.data.runtime === 'electron' ? 'Desktop' : 'Browser host'} · v{info.data.appVersion}
          </span>
        )}
      </div>
    </footer>
  );
}
