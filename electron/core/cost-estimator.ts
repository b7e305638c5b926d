// The price shown before a charged call. The estimate comes from the shared price table, except for
// searches, whose per-page price the spec leaves open: those use the last per-page charge actually
// observed, kept per connection.
import type { DatabaseSync } from 'node:sqlite';
import { formatUsd, type MicroUsd } from '../../shared/money.ts';
import { maxChargeFor, priceRuleFor, type FlatPriceRule, type ServiceOperationName } from '../../shared/service/index.ts';
import { ModuleStore, statement } from './app-db.ts';
import { checkAmount } from './budgets.ts';

export const COST_ESTIMATES_MODULE = 'cost-estimates';

/** Append-only (see app-db.ts). */
export const COST_ESTIMATES_MIGRATIONS: readonly string[] = [
  `CREATE TABLE observed_page_charges (
     connection_id TEXT NOT NULL,
     price_key TEXT NOT NULL,
     micro_usd INTEGER NOT NULL CHECK (micro_usd > 0),
     observed_at TEXT NOT NULL,
     PRIMARY KEY (connection_id, price_key)
   ) STRICT;`,
];

export type CostBasis = 'price_table' | 'last_observed' | 'free' | 'cached';

export interface CostEstimate {
  expectedCostMicroUsd: MicroUsd;
  basis: CostBasis;
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
  /** Which service (local sample, live) the call goes to: prices observed on one say nothing about the other. */
  connectionId?: string;
}

export interface ObservedChargeInput {
  operation: ServiceOperationName;
  /** The call's `X-Svc-Charged-Micro-USD`. */
  chargedMicroUsd: MicroUsd;
  v3Request?: V3PriceRequest;
  connectionId?: string;
  at?: Date;
}

const DEFAULT_CONNECTION = 'default';

// The page price of a v3 query belongs to its variant (comparables pages), not to v3 as a whole.
function priceKey(operation: ServiceOperationName, v3Request: V3PriceRequest | undefined): string {
  if (operation !== 'v3.recordQuery' || v3Request === undefined) return operation;
  return `${operation}:${v3Request.mode === 'report' ? (v3Request.projection ?? '') : v3Request.mode}`;
}

export class CostEstimator extends ModuleStore {
  constructor(db: DatabaseSync) {
    super(db, COST_ESTIMATES_MODULE, COST_ESTIMATES_MIGRATIONS);
  }

  /** What the call is expected to cost, before it is sent. */
  estimate(input: EstimateInput): CostEstimate {
    if (input.cached) {
      return { expectedCostMicroUsd: 0, basis: 'cached', note: 'Already bought: answered from the cache at no charge.' };
    }
    const rule: FlatPriceRule = priceRuleFor(input.operation, input.v3Request);
    switch (rule.kind) {
      case 'free':
        return { expectedCostMicroUsd: 0, basis: 'free', note: 'Free.' };
      case 'per_call':
        return { expectedCostMicroUsd: rule.microUsd, basis: 'price_table', note: `${formatUsd(rule.microUsd)} per call.` };
      case 'per_resolved_item': {
        const items = input.items ?? 1;
        if (!(Number.isSafeInteger(items) && items >= 1)) throw new RangeError('items must be a positive whole number');
        const most = maxChargeFor(rule, { items });
        return {
          expectedCostMicroUsd: most,
          basis: 'price_table',
          note: `Up to ${formatUsd(most)}: ${formatUsd(rule.microUsd)} for each of ${items} ${items === 1 ? 'item' : 'items'} that resolves.`,
        };
      }
      case 'per_page_with_results': {
        const observed = this.lastObservedPageCharge(input.operation, input.v3Request, input.connectionId);
        if (observed !== null) {
          return {
            expectedCostMicroUsd: observed,
            basis: 'last_observed',
            note: `About ${formatUsd(observed)} per page with results, as last charged; an empty page is free.`,
          };
        }
        return {
          expectedCostMicroUsd: rule.microUsd,
          basis: 'price_table',
          note: `${formatUsd(rule.microUsd)} per page with results (list price, not yet observed); an empty page is free.`,
        };
      }
    }
  }

  /**
   * Remembers what a page of a per-page operation actually cost. Zero charges (empty pages,
   * replays) say nothing about the price and are ignored. Returns whether it was recorded.
   */
  recordObservedCharge(input: ObservedChargeInput): boolean {
    const charged = checkAmount('chargedMicroUsd', input.chargedMicroUsd);
    if (charged === 0) return false;
    if (priceRuleFor(input.operation, input.v3Request).kind !== 'per_page_with_results') return false;
    statement(this.db, 
        `INSERT INTO observed_page_charges (connection_id, price_key, micro_usd, observed_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (connection_id, price_key) DO UPDATE SET micro_usd = excluded.micro_usd, observed_at = excluded.observed_at`,
      )
      .run(
        input.connectionId ?? DEFAULT_CONNECTION,
        priceKey(input.operation, input.v3Request),
        charged,
        (input.at ?? new Date()).toISOString(),
      );
    return true;
  }

  lastObservedPageCharge(operation: ServiceOperationName, v3Request?: V3PriceRequest, connectionId?: string): MicroUsd | null {
    const row = statement(this.db, 'SELECT micro_usd FROM observed_page_charges WHERE connection_id = ? AND price_key = ?')
      .get(connectionId ?? DEFAULT_CONNECTION, priceKey(operation, v3Request));
    return row ? Number(row['micro_usd']) : null;
  }
}
