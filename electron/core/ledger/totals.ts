// Spend totals: charges (what Plat booked: reported + unreported − overstated) by session, local
// day, all time and project, read from the rows that cost something, plus charges kept in memory
// while the database refuses writes; credits (the balance rose) by the same periods on their own
// line; and the net (charges − credits), which equals what the balance fell by.
import type { DatabaseSync } from 'node:sqlite';
import { addMicroUsd } from '../../../shared/money.ts';
import type { MicroUsd } from '../../../shared/money.ts';
import { statement } from '../app-db.ts';
import { readBalanceBaseline } from './reconciliation.ts';
import { num, strOrNull } from './rows.ts';
import type { SpendTotals } from './spend-entries.ts';

/** A charge the service reported in an answer not written yet. */
export interface UnsavedCharge {
  chargeMicroUsd: MicroUsd;
  projectId: string | null;
  sessionId: string;
  /** When it happened (the row gets this time when it is written). */
  at: string;
}

/** The local calendar day of `now`, as the ISO times that bound it. */
export function localDayBounds(now: Date): { dayStart: string; dayEnd: string } {
  const dayStart = new Date(now);
  dayStart.setHours(0, 0, 0, 0);
  const dayEnd = new Date(dayStart);
  dayEnd.setDate(dayEnd.getDate() + 1);
  return { dayStart: dayStart.toISOString(), dayEnd: dayEnd.toISOString() };
}

/** The totals the database holds (charges finished within [dayStart, dayEnd) count as today's). */
export function readTotals(db: DatabaseSync, sessionId: string, dayStart: string, dayEnd: string): SpendTotals {
  const charges = `SELECT session_id, project_id, finished_at, id,
      coalesce(charged_micro_usd, 0) + unreported_charge_micro_usd - overstated_charge_micro_usd AS charge
    FROM spend_ledger INDEXED BY spend_ledger_charged
    WHERE kind IN ('call', 'reconciliation') AND (coalesce(charged_micro_usd, 0) > 0 OR unreported_charge_micro_usd > 0)`;
  const sums = statement(db, 
      `SELECT coalesce(sum(CASE WHEN session_id = ? THEN charge END), 0) AS session_total,
         coalesce(sum(CASE WHEN finished_at >= ? AND finished_at < ? THEN charge END), 0) AS today_total,
         coalesce(sum(charge), 0) AS all_total
       FROM (${charges})`,
    )
    .get(sessionId, dayStart, dayEnd);
  const byProject = statement(db, `SELECT project_id, sum(charge) AS total FROM (${charges}) GROUP BY project_id HAVING total > 0 ORDER BY total DESC, project_id`)
    .all()
    .map((row) => ({ projectId: strOrNull(row, 'project_id'), microUsd: num(row, 'total') }));
  const last = statement(db, `SELECT charge, finished_at FROM (${charges}) WHERE charge > 0 ORDER BY finished_at DESC, id DESC LIMIT 1`)
    .get();
  const credits = statement(
    db,
    `SELECT coalesce(sum(CASE WHEN session_id = ? THEN credit_micro_usd END), 0) AS session_total,
       coalesce(sum(CASE WHEN finished_at >= ? AND finished_at < ? THEN credit_micro_usd END), 0) AS today_total,
       coalesce(sum(credit_micro_usd), 0) AS all_total
     FROM spend_ledger INDEXED BY spend_ledger_credit WHERE kind = 'credit'`,
  ).get(sessionId, dayStart, dayEnd);
  const charged = {
    session: sums ? num(sums, 'session_total') : 0,
    today: sums ? num(sums, 'today_total') : 0,
    all: sums ? num(sums, 'all_total') : 0,
  };
  const credited = {
    session: credits ? num(credits, 'session_total') : 0,
    today: credits ? num(credits, 'today_total') : 0,
    all: credits ? num(credits, 'all_total') : 0,
  };
  return {
    sessionMicroUsd: charged.session,
    todayMicroUsd: charged.today,
    allTimeMicroUsd: charged.all,
    sessionCreditMicroUsd: credited.session,
    todayCreditMicroUsd: credited.today,
    allTimeCreditMicroUsd: credited.all,
    sessionNetMicroUsd: charged.session - credited.session,
    todayNetMicroUsd: charged.today - credited.today,
    allTimeNetMicroUsd: charged.all - credited.all,
    byProject,
    lastKnownBalanceMicroUsd: readBalanceBaseline(db)?.balanceMicroUsd ?? null,
    lastChargeMicroUsd: last ? num(last, 'charge') : null,
    lastChargeAt: last ? strOrNull(last, 'finished_at') : null,
  };
}

/** Counts the charges of kept (not yet written) answers into totals read from the database. */
export function addUnsavedCharges(totals: SpendTotals, unsaved: readonly UnsavedCharge[], sessionId: string, dayStart: string, dayEnd: string): void {
  for (const write of unsaved) {
    const charge = write.chargeMicroUsd;
    if (charge === 0) continue;
    totals.allTimeMicroUsd = addMicroUsd(totals.allTimeMicroUsd, charge);
    totals.allTimeNetMicroUsd = addMicroUsd(totals.allTimeNetMicroUsd, charge);
    if (write.sessionId === sessionId) {
      totals.sessionMicroUsd = addMicroUsd(totals.sessionMicroUsd, charge);
      totals.sessionNetMicroUsd = addMicroUsd(totals.sessionNetMicroUsd, charge);
    }
    if (write.at >= dayStart && write.at < dayEnd) {
      totals.todayMicroUsd = addMicroUsd(totals.todayMicroUsd, charge);
      totals.todayNetMicroUsd = addMicroUsd(totals.todayNetMicroUsd, charge);
    }
    const project = totals.byProject.find((entry) => entry.projectId === write.projectId);
    if (project) project.microUsd = addMicroUsd(project.microUsd, charge);
    else totals.byProject.push({ projectId: write.projectId, microUsd: charge });
    if (totals.lastChargeAt === null || write.at >= totals.lastChargeAt) {
      totals.lastChargeMicroUsd = charge;
      totals.lastChargeAt = write.at;
    }
  }
  totals.byProject.sort((a, b) => b.microUsd - a.microUsd || String(a.projectId).localeCompare(String(b.projectId)));
}
