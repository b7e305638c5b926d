// The ledger's words for money the service misreported and for answers it charged but Plat could not
// read: decided here once, shown by the Spend view and written in the ledger CSV.
import { z } from 'zod';
import { formatUsd } from './money.ts';

/**
 * Why a call's booked charge is not simply its charge header (the balance drop is the truth):
 *   disagrees   — the header named an amount the balance did not bear out (more or less than it fell);
 *   unreadable  — the header was not a whole, non-negative number of micro-USD (garbage, a sign);
 *   failed_call — a non-zero header on a failed (non-2xx) call;
 *   missing     — no header, yet the balance fell with this call alone in flight.
 */
export const ChargeCheckSchema = z.enum(['disagrees', 'unreadable', 'failed_call', 'missing']);
export type ChargeCheck = z.infer<typeof ChargeCheckSchema>;

export interface ChargeMarkInput {
  chargeCheck: ChargeCheck | null;
  /** The header as the service sent it, when it could not be read as an amount. */
  chargeHeader: string | null;
  /** The header's amount, when it could be read. */
  reportedChargeMicroUsd: number | null;
  /** What Plat booked on the row (what the balance showed). */
  bookedChargeMicroUsd: number;
  /** Measured against a balance yet: until then the booking waits for one. */
  reconciled: boolean;
}

/** "The service reported $0.50; its balance fell by $0.10: Plat booked $0.10", or null for a row with no mark. */
export function chargeMarkText(row: ChargeMarkInput): string | null {
  if (row.chargeCheck === null) return null;
  const reported =
    row.reportedChargeMicroUsd !== null
      ? formatUsd(row.reportedChargeMicroUsd)
      : row.chargeHeader !== null
        ? `“${row.chargeHeader}” (not an amount)`
        : 'no charge';
  const said = `The service reported ${reported}${row.chargeCheck === 'failed_call' ? ' on a failed call' : ''}`;
  if (!row.reconciled) return `${said}; Plat books what its balance shows once it is known`;
  const booked = formatUsd(row.bookedChargeMicroUsd);
  const fell = row.bookedChargeMicroUsd > 0 ? `its balance fell by ${booked}` : 'its balance did not fall';
  return `${said}; ${fell}: Plat booked ${booked}`;
}

/** A call answered with a success status whose answer Plat could not read (the ledger closes it `failed`). */
export function isUnreadableAnswer(row: { kind: string; status: string; httpStatus: number | null }): boolean {
  return row.kind === 'call' && row.status === 'failed' && row.httpStatus !== null && row.httpStatus >= 200 && row.httpStatus <= 299;
}

/** The outcome of an unreadable answer in words: never "succeeded", and "charged" when it was. */
export function unreadableAnswerText(bookedChargeMicroUsd: number): string {
  return bookedChargeMicroUsd > 0 ? 'charged; the answer could not be read' : 'the answer could not be read';
}
