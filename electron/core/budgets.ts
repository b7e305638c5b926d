// Spending caps. Users' chief complaints about today's tools are charges they could not foresee and
// reports paid for twice (docs/domain.md), so every charged call is checked here first: against the
// session cap, the active project's cap, and the confirmation threshold. What a call is expected to
// cost comes from cost-estimator.ts.
import type { DatabaseSync } from 'node:sqlite';
import type { PlatError } from '../../shared/errors.ts';
import type { BudgetSettings } from '../../shared/ipc.ts';
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
    /** The refusal for a call that would take `what` past its cap, or null when it stays within it. */
    const overCap = (cap: 'session' | 'project', capMicroUsd: MicroUsd | null, spent: MicroUsd, reserved: MicroUsd, what: string, raise: string): SpendRefusal | null => {
      const after = spent + reserved + expected;
      if (capMicroUsd === null || after <= capMicroUsd) return null;
      // Names the money already on its way, so a refusal while other calls run is not a puzzle.
      const running = reserved > 0 ? ` (${formatUsd(reserved)} of it for calls still running)` : '';
      return {
        allowed: false,
        code: 'budget_exceeded',
        cap,
        capMicroUsd,
        spentMicroUsd: spent,
        message:
          `This ${noun} costs ${formatUsd(expected)}, which would take ${what} to ${formatUsd(after)}${running}, ` +
          `over its ${formatUsd(capMicroUsd)} cap. ${raise}`,
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
