import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AppInfo } from '../../shared/ipc.ts';
import { callPlat, plat } from '../platform/plat.ts';
import { CallProgressNotice, SpendMeter } from './SpendMeter.tsx';

export const appInfoQueryKey = ['app.info'] as const;

export function StatusLine() {
  const queryClient = useQueryClient();
  const info = useQuery({ queryKey: appInfoQueryKey, queryFn: () => callPlat('getAppInfo', {}) });

  useEffect(
    () =>
      plat().onServiceConnectionChanged((service) => {
        queryClient.setQueryData<AppInfo>(appInfoQueryKey, (previous) => (previous ? { ...previous, service } : previous));
      }),
    [queryClient],
  );

  const service = info.data?.service;
  const state = info.isError ? 'failed' : (service?.state ?? 'starting');
  const label = info.isError ? 'Cannot reach Plat’s core' : (service?.label ?? 'Connecting…');
  return (
    <footer className="status-line" role="status" aria-live="polite">
      <span className={`status-line__dot status-line__dot--${state}`} aria-hidden="true" />
      <span className="status-line__service" data-testid="service-label">
        {label}
      </span>
      {service && <span className="status-line__url mono">{service.baseUrl}</span>}
      {service?.detail && <span className="status-line__detail">{service.detail}</span>}
      <CallProgressNotice />
      <span className="status-line__spacer" />
      <SpendMeter />
      {info.data && (
        <span className="status-line__runtime">
          {info.data.runtime === 'electron' ? 'Desktop' : 'Browser host'} · v{info.data.appVersion}
        </span>
      )}
    </footer>
  );
}
