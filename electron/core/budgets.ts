// Spending caps and the price shown before a charged call. Users' chief complaints about today's
// tools are charges they could not foresee and reports paid for twice (docs/domain.md), so every
// charged call is checked here first: against the session cap, the active project's cap, and the
// confirmation threshold. The estimate comes from the shared price table, except for searches,
// whose per-page price the spec leaves open: those use the last per-page charge actually observed.
import type { DatabaseSync } from 'node:sqlite';
import type { PlatError } from '../../shared/errors.ts';
import type { BudgetSettings } from '../../shared/ipc.ts';
import { formatUsd, MicroUsdSchema, type MicroUsd } from '../../shared/money.ts';
import { maxChargeFor, priceRuleFor, type FlatPriceRule, type ServiceOperationName } from '../../shared/service/index.ts';
import { applyMigrations, statement } from './app-db.ts';
import { PlatFailure } from './failure.ts';
import { ProjectError, SettingsStore, type ProjectStore } from './projects.ts';

// ---------------------------------------------------------------------------------------------
// Budget settings and the spend check

/** The caps and the confirmation threshold: defined once, with the IPC contract. */
export type { BudgetSettings };

/** $0.10: a summary (and anything dearer) is confirmed; a search page is not. */
export const DEFAULT_CONFIRMATION_THRESHOLD_MICRO_USD = 100_000;

export const DEFAULT_BUDGET_SETTINGS: BudgetSettings = {
  sessionCapMicroUsd: null,
  confirmationThresholdMicroUsd: DEFAULT_CONFIRMATION_THRESHOLD_MICRO_USD,
};

const SESSION_CAP_SETTING = 'budgets.sessionCapMicroUsd';
const CONFIRMATION_THRESHOLD_SETTING = 'budgets.confirmationThresholdMicroUsd';

export interface SpendCheckInput {
  expectedCostMicroUsd: MicroUsd;
  /** Charged so far in this session (from the ledger). */
  sessionSpentMicroUsd: MicroUsd;
  /** The project the call is for; null when none is active. */
  projectId: string | null;
  /** Charged so far to that project (from the ledger); ignored without a project. */
  projectSpentMicroUsd: MicroUsd;
  /**
   * Expected costs of calls already let through and not yet settled (the gateway's reservations):
   * counted against the caps like money spent, so calls running at once cannot pass a cap together.
   */
  sessionReservedMicroUsd?: MicroUsd;
  /** The same, for calls in the same project; ignored without a project. */
  projectReservedMicroUsd?: MicroUsd;
  /** The user has seen the price and said yes. Confirmation never lifts a cap. */
  confirmed: boolean;
  /** Names the call in messages ("This summary costs…"). */
  operation?: ServiceOperationName;
  /** Overrides the operation's noun, e.g. "subject report". */
  label?: string;
}

export type SpendDecision =
  | { allowed: true }
  | {
      allowed: false;
      code: 'budget_exceeded';
      cap: 'session' | 'project';
      capMicroUsd: MicroUsd;
      /** What had been spent against that cap before this call (not counting calls still running). */
      spentMicroUsd: MicroUsd;
      message: string;
    }
  | { allowed: false; code: 'confirmation_required'; expectedCostMicroUsd: MicroUsd; message: string };

export type SpendRefusal = Exclude<SpendDecision, { allowed: true }>;

/** How each operation is named in a sentence ("This summary costs $0.10"). */
const operationNouns: Record<ServiceOperationName, string> = {
  'v4.search': 'search page',
  'v4.catalog': 'catalog request',
  'v4.connected': 'connected-entity lookup',
  'v4.summary': 'summary',
  'v3.recordQuery': 'record query',
  'v2.searchProperties': 'property search page',
  'v2.resolveEntities': 'identifier resolution',
  'v2.getCatalog': 'catalog request',
  'v2.getEntity': 'entity lookup',
  'v2.traverseRelationships': 'relationship lookup',
};

function nounFor(input: Pick<SpendCheckInput, 'operation' | 'label'>): string {
  if (input.label !== undefined && input.label.trim() !== '') return input.label.trim();
  return input.operation !== undefined ? operationNouns[input.operation] : 'call';
}

function readAmount(value: unknown, fallback: MicroUsd | null): MicroUsd | null {
  if (value === null) return null;
  const parsed = MicroUsdSchema.safeParse(value);
  return parsed.success ? parsed.data : fallback;
}

function checkAmount(name: string, value: unknown): MicroUsd {
  const parsed = MicroUsdSchema.safeParse(value);
  if (!parsed.success) throw new RangeError(`${name} must be a whole, non-negative number of micro-USD`);
  return parsed.data;
}

export class BudgetPolicy {
  readonly #settings: SettingsStore;
  readonly #projects: ProjectStore;

  constructor(db: DatabaseSync, projects: ProjectStore) {
    this.#settings = new SettingsStore(db);
    this.#projects = projects;
  }

  settings(): BudgetSettings {
    // A setting never written takes its default; a stored null is the user's "none".
    const sessionCap = this.#settings.get(SESSION_CAP_SETTING);
    const threshold = this.#settings.get(CONFIRMATION_THRESHOLD_SETTING);
    return {
      sessionCapMicroUsd: sessionCap === undefined ? DEFAULT_BUDGET_SETTINGS.sessionCapMicroUsd : readAmount(sessionCap, null),
      confirmationThresholdMicroUsd:
        threshold === undefined
          ? DEFAULT_BUDGET_SETTINGS.confirmationThresholdMicroUsd
          : readAmount(threshold, DEFAULT_CONFIRMATION_THRESHOLD_MICRO_USD),
    };
  }

  /** Changes and persists the given settings; an absent field is left as it is. */
  update(changes: Partial<BudgetSettings>): BudgetSettings {
    const amountOrNull = (name: string, value: MicroUsd | null): MicroUsd | null => {
      if (value === null) return null;
      const parsed = MicroUsdSchema.safeParse(value);
      if (!parsed.success) throw new PlatFailure('invalid_payload', `The ${name} must be a whole, non-negative number of micro-USD, or none`);
      return parsed.data;
    };
    // Validate both before writing either.
    const sessionCap = changes.sessionCapMicroUsd === undefined ? undefined : amountOrNull('session cap', changes.sessionCapMicroUsd);
    const threshold =
      changes.confirmationThresholdMicroUsd === undefined
        ? undefined
        : amountOrNull('confirmation threshold', changes.confirmationThresholdMicroUsd);
    if (sessionCap !== undefined) this.#settings.set(SESSION_CAP_SETTING, sessionCap);
    if (threshold !== undefined) this.#settings.set(CONFIRMATION_THRESHOLD_SETTING, threshold);
    return this.settings();
  }

  /**
   * Whether a call may run. Free calls always may. A call that would take spending past a cap
   * (spent + reserved + expected > cap) is refused, session cap first, then the project's; reaching a cap
   * exactly is allowed. Otherwise a call at or above the confirmation threshold needs `confirmed`.
   */
  checkSpend(input: SpendCheckInput): SpendDecision {
    const expected = checkAmount('expectedCostMicroUsd', input.expectedCostMicroUsd);
    if (expected === 0) return { allowed: true };
    const sessionSpent = checkAmount('sessionSpentMicroUsd', input.sessionSpentMicroUsd);
    const sessionReserved = checkAmount('sessionReservedMicroUsd', input.sessionReservedMicroUsd ?? 0);
    const noun = nounFor(input);
    const settings = this.settings();
    // Names the money already on its way, so a refusal while other calls run is not a puzzle.
    const running = (reserved: MicroUsd) => (reserved > 0 ? ` (${formatUsd(reserved)} of it for calls still running)` : '');

    const sessionCap = settings.sessionCapMicroUsd;
    const sessionAfter = sessionSpent + sessionReserved + expected;
    if (sessionCap !== null && sessionAfter > sessionCap) {
      return {
        allowed: false,
        code: 'budget_exceeded',
        cap: 'session',
        capMicroUsd: sessionCap,
        spentMicroUsd: sessionSpent,
        message:
          `This ${noun} costs ${formatUsd(expected)}, which would take this session to ${formatUsd(sessionAfter)}${running(sessionReserved)}, ` +
          `over its ${formatUsd(sessionCap)} cap. Raise the cap in Settings to continue.`,
      };
    }

    if (input.projectId !== null) {
      const project = this.#projects.get(input.projectId);
      if (!project) throw new ProjectError('That project no longer exists');
      const projectCap = project.spendingCapMicroUsd;
      const projectSpent = checkAmount('projectSpentMicroUsd', input.projectSpentMicroUsd);
      const projectReserved = checkAmount('projectReservedMicroUsd', input.projectReservedMicroUsd ?? 0);
      const projectAfter = projectSpent + projectReserved + expected;
      if (projectCap !== null && projectAfter > projectCap) {
        return {
          allowed: false,
          code: 'budget_exceeded',
          cap: 'project',
          capMicroUsd: projectCap,
          spentMicroUsd: projectSpent,
          message:
            `This ${noun} costs ${formatUsd(expected)}, which would take the project "${project.name}" to ` +
            `${formatUsd(projectAfter)}${running(projectReserved)}, over its ${formatUsd(projectCap)} cap. Raise the project's cap to continue.`,
        };
      }
    }

    const threshold = settings.confirmationThresholdMicroUsd;
    if (threshold !== null && expected >= threshold && !input.confirmed) {
      return {
        allowed: false,
        code: 'confirmation_required',
        expectedCostMicroUsd: expected,
        message: `This ${noun} costs ${formatUsd(expected)}. Confirm to buy it.`,
      };
    }
    return { allowed: true };
  }
}

/** What crosses IPC for a refused spend: the catalogue code with the decision's own message. */
export function spendRefusalError(refusal: SpendRefusal): PlatError {
  return { code: refusal.code, message: refusal.message, retryable: false };
}

// ---------------------------------------------------------------------------------------------
// Cost estimates

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

export class CostEstimator {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    applyMigrations(db, COST_ESTIMATES_MODULE, COST_ESTIMATES_MIGRATIONS);
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
    statement(this.#db, 
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
    const row = statement(this.#db, 'SELECT micro_usd FROM observed_page_charges WHERE connection_id = ? AND price_key = ?')
      .get(connectionId ?? DEFAULT_CONNECTION, priceKey(operation, v3Request));
    return row ? Number(row['micro_usd']) : null;
  }
}
