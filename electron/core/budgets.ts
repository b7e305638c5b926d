// Spending caps. Users' chief complaints about today's tools are charges they could not foresee and
// reports paid for twice (docs/domain.md), so every charged call is checked here first: against the
// session cap, the active project's cap, and the confirmation threshold. What a call is expected to
// cost comes from cost-estimator.ts. A cap is a hard limit, never passed on a guess: a call whose
// price is not known is counted at a stated bound (the largest charge seen for it, or the person's
// setting) and always asks first.
import type { DatabaseSync } from 'node:sqlite';
import type { PlatError } from '../../shared/errors.ts';
import { UnknownPriceBoundSchema, type BudgetSettings } from '../../shared/ipc.ts';
import { formatUsd, MicroUsdSchema, type MicroUsd } from '../../shared/money.ts';
import { serviceOperations, type ServiceOperationName } from '../../shared/service/index.ts';
import { PlatFailure } from './failure.ts';
import { ProjectError, type ProjectStore } from './projects.ts';
import { SettingsStore } from './settings-store.ts';

// ---------------------------------------------------------------------------------------------
// Budget settings and the spend check

/** The caps and the confirmation threshold: defined once, with the IPC contract. */
export type { BudgetSettings };

/** $0.10: a summary (and anything dearer) is confirmed; a search page is not. */
export const DEFAULT_CONFIRMATION_THRESHOLD_MICRO_USD = 100_000;

/** $1.00: the most a call whose price is not known is taken to cost, until one is seen charged. */
export const DEFAULT_UNKNOWN_PRICE_BOUND_MICRO_USD = 1_000_000;

export const DEFAULT_BUDGET_SETTINGS: BudgetSettings = {
  sessionCapMicroUsd: null,
  confirmationThresholdMicroUsd: DEFAULT_CONFIRMATION_THRESHOLD_MICRO_USD,
  unknownPriceBoundMicroUsd: DEFAULT_UNKNOWN_PRICE_BOUND_MICRO_USD,
};

const SESSION_CAP_SETTING = 'budgets.sessionCapMicroUsd';
const CONFIRMATION_THRESHOLD_SETTING = 'budgets.confirmationThresholdMicroUsd';
const UNKNOWN_PRICE_BOUND_SETTING = 'budgets.unknownPriceBoundMicroUsd';

export interface SpendCheckInput {
  /** What the call is expected to cost; null when its price is not known on this connection. */
  expectedCostMicroUsd: MicroUsd | null;
  /** The largest charge seen for this operation on this connection (null or absent: none seen). */
  largestSeenMicroUsd?: MicroUsd | null;
  /** The expected cost was learnt from the last call on this connection, not stated: said as "about". */
  learnt?: boolean;
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
  | { allowed: false; code: 'confirmation_required'; expectedCostMicroUsd: MicroUsd | null; message: string };

export type SpendRefusal = Exclude<SpendDecision, { allowed: true }>;

function nounFor(input: Pick<SpendCheckInput, 'operation' | 'label'>): string {
  if (input.label !== undefined && input.label.trim() !== '') return input.label.trim();
  return input.operation !== undefined ? serviceOperations[input.operation].noun : 'call';
}

function readAmount(value: unknown, fallback: MicroUsd | null): MicroUsd | null {
  if (value === null) return null;
  const parsed = MicroUsdSchema.safeParse(value);
  return parsed.success ? parsed.data : fallback;
}

/** The amount as micro-USD, or a RangeError naming it (a programming error, not a user's). */
export function checkAmount(name: string, value: unknown): MicroUsd {
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
    const bound = UnknownPriceBoundSchema.safeParse(this.#settings.get(UNKNOWN_PRICE_BOUND_SETTING));
    return {
      sessionCapMicroUsd: sessionCap === undefined ? DEFAULT_BUDGET_SETTINGS.sessionCapMicroUsd : readAmount(sessionCap, null),
      confirmationThresholdMicroUsd:
        threshold === undefined
          ? DEFAULT_BUDGET_SETTINGS.confirmationThresholdMicroUsd
          : readAmount(threshold, DEFAULT_CONFIRMATION_THRESHOLD_MICRO_USD),
      unknownPriceBoundMicroUsd: bound.success ? bound.data : DEFAULT_UNKNOWN_PRICE_BOUND_MICRO_USD,
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
    let bound: MicroUsd | undefined;
    if (changes.unknownPriceBoundMicroUsd !== undefined) {
      const parsed = UnknownPriceBoundSchema.safeParse(changes.unknownPriceBoundMicroUsd);
      if (!parsed.success) {
        throw new PlatFailure('invalid_payload', `The largest charge to allow for a call whose price is not known ${parsed.error.issues[0]?.message ?? 'is not valid'}`);
      }
      bound = parsed.data;
    }
    if (sessionCap !== undefined) this.#settings.set(SESSION_CAP_SETTING, sessionCap);
    if (threshold !== undefined) this.#settings.set(CONFIRMATION_THRESHOLD_SETTING, threshold);
    if (bound !== undefined) this.#settings.set(UNKNOWN_PRICE_BOUND_SETTING, bound);
    return this.settings();
  }

  /**
   * What a call is counted at against the caps (and reserved at while it runs): a known price, or
   * the largest charge seen for it when that is more; a price not known, at the largest charge seen
   * for it or, before any, the person's bound.
   */
  spendBound(expectedCostMicroUsd: MicroUsd | null, largestSeenMicroUsd: MicroUsd | null = null): MicroUsd {
    if (expectedCostMicroUsd === null) return largestSeenMicroUsd ?? this.settings().unknownPriceBoundMicroUsd;
    if (expectedCostMicroUsd === 0) return 0;
    return Math.max(expectedCostMicroUsd, largestSeenMicroUsd ?? 0);
  }

  /**
   * Whether a call may run. Free calls always may. A call that might take spending past a cap
   * (spent + reserved + its bound > cap; see {@link spendBound}) is refused, session cap first, then
   * the project's; reaching a cap exactly is allowed. Otherwise a call whose price is not known, or
   * one at or above the confirmation threshold, needs `confirmed`.
   */
  checkSpend(input: SpendCheckInput): SpendDecision {
    const known = input.expectedCostMicroUsd !== null;
    const expected = known ? checkAmount('expectedCostMicroUsd', input.expectedCostMicroUsd) : null;
    if (expected === 0) return { allowed: true };
    const largestSeen = input.largestSeenMicroUsd == null ? null : checkAmount('largestSeenMicroUsd', input.largestSeenMicroUsd);
    const sessionSpent = checkAmount('sessionSpentMicroUsd', input.sessionSpentMicroUsd);
    const sessionReserved = checkAmount('sessionReservedMicroUsd', input.sessionReservedMicroUsd ?? 0);
    const noun = nounFor(input);
    const settings = this.settings();
    const bound = this.spendBound(expected, largestSeen);
    // A price learnt from the last call is what that call cost, not a price the service stated.
    const priceText = (amount: MicroUsd) => (input.learnt === true ? `about ${formatUsd(amount)} (what your last call cost)` : formatUsd(amount));
    /** The refusal for a call that might take `what` past its cap, or null when it stays within it. */
    const overCap = (cap: 'session' | 'project', capMicroUsd: MicroUsd | null, spent: MicroUsd, reserved: MicroUsd, what: string, raise: string): SpendRefusal | null => {
      const after = spent + reserved + bound;
      if (capMicroUsd === null || after <= capMicroUsd) return null;
      // Names the money already on its way, so a refusal while other calls run is not a puzzle.
      const running = reserved > 0 ? ` (${formatUsd(reserved)} of it for calls still running)` : '';
      const refusal = { allowed: false, code: 'budget_exceeded', cap, capMicroUsd, spentMicroUsd: spent } as const;
      if (expected === null) {
        const left = Math.max(0, capMicroUsd - spent - reserved);
        const why = largestSeen !== null ? 'the largest charge seen for it on this service' : 'the most Plat allows for a call whose price is not known';
        return {
          ...refusal,
          message:
            `The price of this ${noun} is not known, and ${what} has ${formatUsd(left)} left of its ${formatUsd(capMicroUsd)} cap${running}: ` +
            `less than ${formatUsd(bound)}, ${why}. ${raise}`,
        };
      }
      const costs = bound > expected ? `may cost ${formatUsd(bound)} (the largest charge seen for it)` : `costs ${priceText(expected)}`;
      return {
        ...refusal,
        message: `This ${noun} ${costs}, which would take ${what} to ${formatUsd(after)}${running}, over its ${formatUsd(capMicroUsd)} cap. ${raise}`,
      };
    };

    const sessionRefusal = overCap('session', settings.sessionCapMicroUsd, sessionSpent, sessionReserved, 'this session', 'Raise the cap in Settings to continue.');
    if (sessionRefusal) return sessionRefusal;

    if (input.projectId !== null) {
      const project = this.#projects.get(input.projectId);
      if (!project) throw new ProjectError('That project no longer exists');
      const projectSpent = checkAmount('projectSpentMicroUsd', input.projectSpentMicroUsd);
      const projectReserved = checkAmount('projectReservedMicroUsd', input.projectReservedMicroUsd ?? 0);
      const projectRefusal = overCap('project', project.spendingCapMicroUsd, projectSpent, projectReserved, `the project "${project.name}"`, "Raise the project's cap to continue.");
      if (projectRefusal) return projectRefusal;
    }

    if (expected === null) {
      if (input.confirmed) return { allowed: true };
      const seen = largestSeen !== null ? `the largest charge seen for this operation was ${formatUsd(largestSeen)}` : 'no charge for it seen yet';
      return { allowed: false, code: 'confirmation_required', expectedCostMicroUsd: null, message: `This ${noun}'s price is not known; ${seen}. Confirm to buy it.` };
    }
    const threshold = settings.confirmationThresholdMicroUsd;
    if (threshold !== null && expected >= threshold && !input.confirmed) {
      return {
        allowed: false,
        code: 'confirmation_required',
        expectedCostMicroUsd: expected,
        message: `This ${noun} costs ${priceText(expected)}. Confirm to buy it.`,
      };
    }
    return { allowed: true };
  }
}

/** What crosses IPC for a refused spend: the catalogue code with the decision's own message. */
export function spendRefusalError(refusal: SpendRefusal): PlatError {
  return { code: refusal.code, message: refusal.message, retryable: false };
}
