// The appraiser's act on the time trend: choose its window, accept its rate as the time adjustment
// (only a supported rate), or decline it with a reason. Pure: each takes a workfile and returns a new
// one. The act is printed with its support (timeRateSupportText).
import type { ComparablesWorkfile } from '../comparables/model.ts';
import { formatDay } from '../format-date.ts';
import { perMonth } from './market-rules.ts';
import { DEFAULT_TREND_WINDOW, type MarketTrend, type TrendWindow } from './trend.ts';

type MarketTrendState = NonNullable<ComparablesWorkfile['marketTrend']>;

const stateOf = (workfile: ComparablesWorkfile): MarketTrendState => workfile.marketTrend ?? { windowMonths: DEFAULT_TREND_WINDOW, decision: null };

export function setTrendWindow(workfile: ComparablesWorkfile, windowMonths: TrendWindow): ComparablesWorkfile {
  return { ...workfile, marketTrend: { ...stateOf(workfile), windowMonths } };
}

/** The trend's rate becomes the time rate (source: Plat's suggestion, accepted); refused when the trend does not support one. */
export function acceptTimeTrend(workfile: ComparablesWorkfile, trend: MarketTrend, at: string): { workfile: ComparablesWorkfile; problem: string | null } {
  if (trend.offer === null) return { workfile, problem: trend.conclusion };
  return {
    workfile: {
      ...workfile,
      rates: { ...workfile.rates, timePctPerMonth: trend.offer },
      rateSource: { ...workfile.rateSource, timePctPerMonth: 'suggestion' },
      marketTrend: { windowMonths: trend.windowMonths, decision: { kind: 'accepted', pctPerMonth: trend.offer, windowMonths: trend.windowMonths, at } },
    },
    problem: null,
  };
}

/** The appraiser declines the trend's rate (or records that none is supported), with a reason; a time rate taken from the trend is withdrawn. */
export function declineTimeTrend(workfile: ComparablesWorkfile, reason: string, at: string): ComparablesWorkfile {
  const state = stateOf(workfile);
  const fromTrend = state.decision?.kind === 'accepted' && workfile.rates.timePctPerMonth === state.decision.pctPerMonth && workfile.rateSource.timePctPerMonth === 'suggestion';
  const rates = fromTrend ? { ...workfile.rates, timePctPerMonth: null } : workfile.rates;
  const rateSource = { ...workfile.rateSource };
  if (fromTrend) delete rateSource.timePctPerMonth;
  return { ...workfile, rates, rateSource, marketTrend: { ...state, decision: { kind: 'declined', reason: reason.trim().slice(0, 2_000), at } } };
}

/** The time rate's support as printed beside it: the appraiser's act, and what the trend says now. */
export function timeRateSupportText(workfile: ComparablesWorkfile, trend: MarketTrend): string {
  const decision = workfile.marketTrend?.decision ?? null;
  if (decision === null) return `Not decided. ${trend.conclusion}`;
  if (decision.kind === 'declined') return `Declined by the appraiser on ${formatDay(decision.at.slice(0, 10))}: “${decision.reason}”. ${trend.conclusion}`;
  const now = trend.offer === null ? ` The trend as read now does not support a rate: ${trend.conclusion}` : trend.offer !== decision.pctPerMonth ? ` The trend as read now gives ${perMonth(trend.offer)}.` : '';
  const kept = workfile.rates.timePctPerMonth === decision.pctPerMonth ? '' : ' The time rate has since been changed by the appraiser.';
  return `Accepted by the appraiser on ${formatDay(decision.at.slice(0, 10))}: ${perMonth(decision.pctPerMonth)} from the ${decision.windowMonths}-month market trend. ${trend.conclusion}${now}${kept}`;
}
