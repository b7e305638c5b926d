// The page's link to Plat's core, made visible: a one-line notice while the host is gone (with when
// the next try is due, and a way to try now), and a refresh of what the page shows once it is back.
import { useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { serviceCallOperations, type ServiceCallIpcName } from '../../shared/ipc-names.ts';
import { serviceOperations } from '../../shared/service/index.ts';
import { plat } from '../platform/plat.ts';
import { useHostLink } from '../platform/host-link.ts';
import { hostLinkWords } from './status-model.ts';
import { serviceQueryScope } from '../platform/query-keys.ts';

const isFreeServiceQuery = (key: readonly unknown[]): boolean => {
  const operation = serviceCallOperations[key[1] as ServiceCallIpcName] as keyof typeof serviceOperations | undefined;
  return operation !== undefined && serviceOperations[operation].price.kind === 'free';
};

/**
 * After a reconnection: everything read from the core (app info, spend, settings, prices) is read
 * again, and free service reads that failed while the host was gone are retried. A paid answer is
 * never refetched behind the person's back.
 */
export function refreshAfterReconnect(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: (query) => query.queryKey[0] !== serviceQueryScope[0] || (query.state.status === 'error' && isFreeServiceQuery(query.queryKey)),
  });
}

export function useRefreshOnReconnect(): void {
  const queryClient = useQueryClient();
  const { opens } = useHostLink();
  const seen = useRef(opens);
  useEffect(() => {
    if (opens > seen.current && seen.current > 0) void refreshAfterReconnect(queryClient);
    seen.current = Math.max(seen.current, opens);
  }, [opens, queryClient]);
}

export function HostLinkNotice() {
  const link = useHostLink();
  // The countdown is re-read every second while a retry is scheduled.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (link.retryAt === null) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [link.retryAt]);
  const words = hostLinkWords(link, now);
  if (!words) return null;
  return (
    <div className={`host-link-notice host-link-notice--${link.state}`} role="alert" data-testid="host-link-notice">
      <strong>{words.headline}</strong>
      <span className="host-link-notice__detail">{words.detail}</span>
      {link.state === 'lost' && (
        // Any call tries the link at once; getAppInfo is a free local read.
        <button type="button" className="button button--small" onClick={() => void plat().getAppInfo({})}>
          Try now
        </button>
      )}
    </div>
  );
}
