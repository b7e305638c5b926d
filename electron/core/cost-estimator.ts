// The price shown before a charged call, per connection. A price is known only when the spec states it
// (v4 summary, catalog, connected), when the connection is the embedded sample service (Plat runs it,
// so its price table is known), or when a charge for it was observed on that connection (the charge
// header of a charged call; the last one wins, and the largest is kept too). Otherwise it is not
// known: another service sets its own prices wherever the spec shows none.
import type { DatabaseSync } from 'node:sqlite';
import type { PriceBasis } from '../../shared/ipc.ts';
import { formatUsd, type MicroUsd } from '../../shared/money.ts';
import { maxChargeFor, priceRuleFor, serviceOperations, specPriceRuleFor, type FlatPriceRule, type ServiceOperationName } from '../../shared/service/index.ts';
import { ModuleStore, statement } from './app-db.ts';
import { checkAmount } from './budgets.ts';

export const COST_ESTIMATES_MODULE = 'cost-estimates';

/** The connection id of the embedded sample service, whose price table is Plat's own. */
export const EMBEDDED_CONNECTION_ID = 'local-sample';

/** Append-only (see app-db.ts). */
export const COST_ESTIMATES_MIGRATIONS: readonly string[] = [
  `CREATE TABLE observed_page_charges (
     connection_id TEXT NOT NULL,
     price_key TEXT NOT NULL,
     micro_usd INTEGER NOT NULL CHECK (micro_usd > 0),
     observed_at TEXT NOT NULL,
     PRIMARY KEY (connection_id, price_key)
   ) STRICT;`,
  // Every charged operation is observed now, not only pages, and the largest charge is kept beside the last.
  `CREATE TABLE observed_charges (
     connection_id TEXT NOT NULL,
     price_key TEXT NOT NULL,
     last_micro_usd INTEGER NOT NULL CHECK (last_micro_usd > 0),
     largest_micro_usd INTEGER NOT NULL CHECK (largest_micro_usd >= last_micro_usd),
     observed_at TEXT NOT NULL,
     PRIMARY KEY (connection_id, price_key)
   ) STRICT;
   INSERT INTO observed_charges (connection_id, price_key, last_micro_usd, largest_micro_usd, observed_at)
     SELECT connection_id, price_key, micro_usd, micro_usd, observed_at FROM observed_page_charges;
   DROP TABLE observed_page_charges;`,
  // A price of zero is learnt too (a call answered with something, not replayed, charged nothing), so
  // a service's free operation can run by itself once seen free.
  `CREATE TABLE observed_charges_2 (
     connection_id TEXT NOT NULL,
     price_key TEXT NOT NULL,
     last_micro_usd INTEGER NOT NULL CHECK (last_micro_usd >= 0),
     largest_micro_usd INTEGER NOT NULL CHECK (largest_micro_usd >= last_micro_usd),
     observed_at TEXT NOT NULL,
     PRIMARY KEY (connection_id, price_key)
   ) STRICT;
   INSERT INTO observed_charges_2 SELECT connection_id, price_key, last_micro_usd, largest_micro_usd, observed_at FROM observed_charges;
   DROP TABLE observed_charges;
   ALTER TABLE observed_charges_2 RENAME TO observed_charges;`,
];

export type CostBasis = PriceBasis;

export interface CostEstimate {
  /** null when the price is not known (basis `unknown`). */
  expectedCostMicroUsd: MicroUsd | null;
  basis: CostBasis;
  /** The largest charge seen for this operation on this connection, or null when none was. */
  largestSeenMicroUsd: MicroUsd | null;
  /** One sentence for the price preview. */
  note: string;
}

/** A v3 record query's mode and projection, which choose its price. */
export interface V3PriceRequest {
  mode: 'catalog' | 'report' | 'aggregate';
  projection?: string | undefined;
}

export interface EstimateInput {
  operation: ServiceOperationName;
  /** The answer is already in the response cache: it will cost nothing. */
  cached: boolean;
  /** Required for `v3.recordQuery`, whose price depends on it. */
  v3Request?: V3PriceRequest;
  /** Batch size for per-item prices (v2 resolutions); 1 when omitted. */
  items?: number;
  /**
   * Which service the call goes to: prices observed on one say nothing about another, and only the
   * embedded service's ({@link EMBEDDED_CONNECTION_ID}, the default) table is known.
   */
  connectionId?: string;
}

export interface ObservedChargeInput {
  operation: ServiceOperationName;
  /** The call's `X-Svc-Charged-Micro-USD`. */
  chargedMicroUsd: MicroUsd;
  /**
   * The call was answered with something (not an empty page, a resolution that found nothing, or a
   * replay): a zero charge then says the price is zero. Without it a zero says nothing.
   */
  answeredWithResults?: boolean;
  v3Request?: V3PriceRequest;
  connectionId?: string;
  at?: Date;
}

export interface ObservedCharge {
  lastMicroUsd: MicroUsd;
  largestMicroUsd: MicroUsd;
}

// A v3 query's price belongs to its variant (subject report, comparables pages), not to v3 as a whole.
function priceKey(operation: ServiceOperationName, v3Request: V3PriceRequest | undefined): string {
  if (operation !== 'v3.recordQuery' || v3Request === undefined) return operation;
  return `${operation}:${v3Request.mode === 'report' ? (v3Request.projection ?? '') : v3Request.mode}`;
}

/** "$0.10 per call", "$0.02 per page with results; an empty page is free", "Free". */
function ruleText(rule: FlatPriceRule, items: number): string {
  switch (rule.kind) {
    case 'free':
      return 'Free';
    case 'per_call':
      return `${formatUsd(rule.microUsd)} per call`;
    case 'per_page_with_results':
      return `${formatUsd(rule.microUsd)} per page with results; an empty page is free`;
    case 'per_resolved_item':
      return `Up to ${formatUsd(maxChargeFor(rule, { items }))}: ${formatUsd(rule.microUsd)} for each of ${items} ${items === 1 ? 'item' : 'items'} that resolves`;
  }
}

export class CostEstimator extends ModuleStore {
  constructor(db: DatabaseSync) {
    super(db, COST_ESTIMATES_MODULE, COST_ESTIMATES_MIGRATIONS);
  }

  /** What the call is expected to cost, before it is sent, on the connection it goes to. */
  estimate(input: EstimateInput): CostEstimate {
    const connectionId = input.connectionId ?? EMBEDDED_CONNECTION_ID;
    const items = input.items ?? 1;
    if (!(Number.isSafeInteger(items) && items >= 1)) throw new RangeError('items must be a positive whole number');
    // Checked first: a v3 query without its mode and projection cannot be priced on any connection.
    const tableRule: FlatPriceRule = priceRuleFor(input.operation, input.v3Request);
    const observed = this.observedCharge(input.operation, input.v3Request, connectionId);
    const largestSeenMicroUsd = observed?.largestMicroUsd ?? null;
    if (input.cached) {
      return { expectedCostMicroUsd: 0, basis: 'cached', largestSeenMicroUsd, note: 'Already bought: answered from the cache at no charge.' };
    }
    const known = (expectedCostMicroUsd: MicroUsd, basis: CostBasis, note: string): CostEstimate => ({ expectedCostMicroUsd, basis, largestSeenMicroUsd, note });
    const fromLastCall = (last: MicroUsd) => {
      const largest = observed !== null && observed.largestMicroUsd > last ? `; the largest charge seen for it was ${formatUsd(observed.largestMicroUsd)}` : '';
      return known(last, 'last_observed', last === 0 ? `Free: your last call was answered at no charge${largest}.` : `About ${formatUsd(last)}, from your last call${largest}.`);
    };

    if (connectionId === EMBEDDED_CONNECTION_ID) {
      // Plat runs this service: its table is known. Page prices still follow what was charged, as a
      // page is the one price the spec leaves open even here.
      if (tableRule.kind === 'per_page_with_results' && observed !== null) return fromLastCall(observed.lastMicroUsd);
      const most = maxChargeFor(tableRule, { items });
      return known(most, 'price_table', `${ruleText(tableRule, items)}.`);
    }
    // Another service: what it charged wins; before any charge, only the spec's prices are known.
    if (observed !== null) return fromLastCall(observed.lastMicroUsd);
    const spec = specPriceRuleFor(input.operation);
    if (spec !== null) return known(maxChargeFor(spec, { items }), 'spec', `${ruleText(spec, items)} (the spec's price).`);
    return {
      expectedCostMicroUsd: null,
      basis: 'unknown',
      largestSeenMicroUsd,
      note: `Price not known: no charge for a ${serviceOperations[input.operation].noun} seen yet on this service.`,
    };
  }

  /**
   * Remembers what a call actually cost on a connection (the last charge, and the largest). A zero
   * charge is kept only for a call answered with results (`answeredWithResults`); otherwise (empty
   * pages, replays) it says nothing about the price and is ignored. Returns whether it was recorded.
   */
  recordObservedCharge(input: ObservedChargeInput): boolean {
    const charged = checkAmount('chargedMicroUsd', input.chargedMicroUsd);
    if (charged === 0 && input.answeredWithResults !== true) return false;
    // A v3 query without its variant has no price of its own to learn.
    if (input.operation === 'v3.recordQuery' && input.v3Request === undefined) return false;
    statement(this.db,
        `INSERT INTO observed_charges (connection_id, price_key, last_micro_usd, largest_micro_usd, observed_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (connection_id, price_key) DO UPDATE SET last_micro_usd = excluded.last_micro_usd,
           largest_micro_usd = MAX(largest_micro_usd, excluded.last_micro_usd), observed_at = excluded.observed_at`,
      )
      .run(
        input.connectionId ?? EMBEDDED_CONNECTION_ID,
        priceKey(input.operation, input.v3Request),
        charged,
        charged,
        (input.at ?? new Date()).toISOString(),
      );
    return true;
  }

  /** The last and largest charge seen for an operation on a connection, or null when none was. */
  observedCharge(operation: ServiceOperationName, v3Request?: V3PriceRequest, connectionId?: string): ObservedCharge | null {
    const row = statement(this.db, 'SELECT last_micro_usd, largest_micro_usd FROM observed_charges WHERE connection_id = ? AND price_key = ?')
      .get(connectionId ?? EMBEDDED_CONNECTION_ID, priceKey(operation, v3Request));
    return row ? { lastMicroUsd: Number(row['last_micro_usd']), largestMicroUsd: Number(row['largest_micro_usd']) } : null;
  }
}

/**
 * Whether an answer holds something, so that a zero charge for it tells the price: a page with items
 * (an empty page is free whatever a page costs), a resolution with a candidate, any other answer's data.
 */
export function answerHasResults(envelope: unknown): boolean {
  if (typeof envelope !== 'object' || envelope === null) return false;
  const { status, data } = envelope as { status?: unknown; data?: unknown };
  if (status !== 'ok' || typeof data !== 'object' || data === null) return false;
  const items = (data as { items?: unknown }).items;
  if (!Array.isArray(items)) return true;
  if (items.length === 0) return false;
  const resolutions = items.filter((item): item is { candidates: unknown } => typeof item === 'object' && item !== null && 'candidates' in item);
  return resolutions.length === 0 || resolutions.some((item) => Array.isArray(item.candidates) && item.candidates.length > 0);
}
