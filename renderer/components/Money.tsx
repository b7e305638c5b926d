import { formatUsd, type MicroUsd } from '../../shared/money.ts';

/** Money is integer micro-USD everywhere; this is the edge where it becomes text. */
export function Money({ micro, className }: { micro: MicroUsd | null | undefined; className?: string }) {
  return <span className={`money${className ? ` ${className}` : ''}`}>{micro == null ? '—' : formatUsd(micro)}</span>;
}
