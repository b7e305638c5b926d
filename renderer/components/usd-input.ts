// Reading and showing a dollar amount typed into a cap or threshold field, one way for every view
// that takes one (Settings' budgets and projects, an assignment's cap).
import { formatUsd, safeParseUsd, type MicroUsd } from '../../shared/money.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** A dollar amount for a cap or threshold: '' → null (none), otherwise a non-negative amount. */
export function parseOptionalUsd(text: string, label: string): Parsed<MicroUsd | null> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  const parsed = safeParseUsd(trimmed);
  if (!parsed.ok) return { ok: false, error: `${label}: enter a dollar amount such as 5 or 12.50 (at most 6 decimal places), or leave it empty.` };
  if (parsed.value < 0) return { ok: false, error: `${label}: must not be negative.` };
  return { ok: true, value: parsed.value };
}

/** A dollar amount that must be given and be more than $0, at most `maxMicroUsd` (a bound, not a cap). */
export function parsePositiveUsd(text: string, label: string, maxMicroUsd: MicroUsd): Parsed<MicroUsd> {
  const parsed = safeParseUsd(text.trim());
  if (!parsed.ok) return { ok: false, error: `${label}: enter a dollar amount such as 1 or 0.50 (at most 6 decimal places).` };
  if (parsed.value <= 0) return { ok: false, error: `${label}: must be more than $0.` };
  if (parsed.value > maxMicroUsd) return { ok: false, error: `${label}: must be at most ${formatUsd(maxMicroUsd)}.` };
  return { ok: true, value: parsed.value };
}

/** The input text for a stored amount: "5.00", "1,250.00", '' for none. */
export function usdInputText(micro: MicroUsd | null): string {
  return micro === null ? '' : formatUsd(micro).replace('$', '');
}
