import type { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAppDatabase } from './app-db.ts';
import {
  BudgetPolicy,
  DEFAULT_BUDGET_SETTINGS,
  spendRefusalError,
  type SpendCheckInput,
} from './budgets.ts';
import { ProjectStore } from './projects.ts';

const SUMMARY = 100_000;

describe('BudgetPolicy', () => {
  let db: DatabaseSync;
  let projects: ProjectStore;
  let budgets: BudgetPolicy;

  const check = (overrides: Partial<SpendCheckInput>) =>
    budgets.checkSpend({
      expectedCostMicroUsd: SUMMARY,
      sessionSpentMicroUsd: 0,
      projectId: null,
      projectSpentMicroUsd: 0,
      confirmed: true,
      operation: 'v4.summary',
      ...overrides,
    });

  beforeEach(() => {
    db = openAppDatabase(':memory:');
    projects = new ProjectStore(db);
    budgets = new BudgetPolicy(db, projects);
  });
  afterEach(() => db.close());

  it('defaults to no session cap and confirmation from $0.10', () => {
    expect(budgets.settings()).toEqual({ sessionCapMicroUsd: null, confirmationThresholdMicroUsd: 100_000, unknownPriceBoundMicroUsd: 1_000_000 });
    expect(DEFAULT_BUDGET_SETTINGS.confirmationThresholdMicroUsd).toBe(100_000);
  });

  it('persists settings, including an explicit "none"', () => {
    budgets.update({ sessionCapMicroUsd: 5_000_000 });
    budgets.update({ confirmationThresholdMicroUsd: null });
    const reopened = new BudgetPolicy(db, projects);
    expect(reopened.settings()).toEqual({ sessionCapMicroUsd: 5_000_000, confirmationThresholdMicroUsd: null, unknownPriceBoundMicroUsd: 1_000_000 });
  });

  it('persists the bound for a call whose price is not known, and refuses one that is not a positive amount', () => {
    expect(budgets.update({ unknownPriceBoundMicroUsd: 250_000 })).toMatchObject({ unknownPriceBoundMicroUsd: 250_000 });
    expect(new BudgetPolicy(db, projects).settings().unknownPriceBoundMicroUsd).toBe(250_000);
    // Zero would let a call of unknown price past any cap; the others are not amounts.
    for (const bad of [0, -1, 0.5, Number.NaN, 2_000_000_000]) {
      expect(() => budgets.update({ sessionCapMicroUsd: 1, unknownPriceBoundMicroUsd: bad })).toThrow(/price is not known/);
    }
    expect(budgets.settings()).toEqual({ ...DEFAULT_BUDGET_SETTINGS, unknownPriceBoundMicroUsd: 250_000 });
    // Leaving it out keeps it.
    expect(budgets.update({ sessionCapMicroUsd: 3_000_000 }).unknownPriceBoundMicroUsd).toBe(250_000);
  });

  it('refuses invalid settings without changing anything', () => {
    expect(() => budgets.update({ sessionCapMicroUsd: 1_000_000, confirmationThresholdMicroUsd: -1 })).toThrow(/confirmation threshold/);
    expect(budgets.settings()).toEqual(DEFAULT_BUDGET_SETTINGS);
  });

  it('refuses a call that would cross the session cap, with a message a person can act on', () => {
    budgets.update({ sessionCapMicroUsd: 5_000_000 });
    const decision = check({ sessionSpentMicroUsd: 5_000_000 });
    expect(decision).toEqual({
      allowed: false,
      code: 'budget_exceeded',
      cap: 'session',
      capMicroUsd: 5_000_000,
      spentMicroUsd: 5_000_000,
      message: 'This summary costs $0.10, which would take this session to $5.10, over its $5.00 cap. Raise the cap in Settings to continue.',
    });
    if (decision.allowed) throw new Error('unreachable');
    expect(spendRefusalError(decision)).toEqual({ code: 'budget_exceeded', message: decision.message, retryable: false });
  });

  it('allows a call that reaches the cap exactly', () => {
    budgets.update({ sessionCapMicroUsd: 5_000_000 });
    expect(check({ sessionSpentMicroUsd: 4_900_000 })).toEqual({ allowed: true });
    expect(check({ sessionSpentMicroUsd: 4_900_001 })).toMatchObject({ allowed: false, cap: 'session' });
  });

  it('always lets free calls through, even past a cap and unconfirmed', () => {
    budgets.update({ sessionCapMicroUsd: 0, confirmationThresholdMicroUsd: 0 });
    expect(check({ expectedCostMicroUsd: 0, sessionSpentMicroUsd: 9_000_000, confirmed: false })).toEqual({ allowed: true });
  });

  it('a zero session cap refuses every charged call', () => {
    budgets.update({ sessionCapMicroUsd: 0 });
    expect(check({ expectedCostMicroUsd: 1 })).toMatchObject({ allowed: false, code: 'budget_exceeded', cap: 'session' });
  });

  it("enforces the project's cap, naming the project", () => {
    const smith = projects.create({ name: 'Smith appraisal', spendingCapMicroUsd: 20_000_000 });
    expect(check({ projectId: smith.id, projectSpentMicroUsd: 19_900_000 })).toEqual({ allowed: true });
    expect(check({ projectId: smith.id, projectSpentMicroUsd: 19_950_000 })).toEqual({
      allowed: false,
      code: 'budget_exceeded',
      cap: 'project',
      capMicroUsd: 20_000_000,
      spentMicroUsd: 19_950_000,
      message:
        'This summary costs $0.10, which would take the project "Smith appraisal" to $20.05, over its $20.00 cap. Raise the project\'s cap to continue.',
    });
    // Without a cap, the project's spending is unlimited.
    const open = projects.create({ name: 'No cap' });
    expect(check({ projectId: open.id, projectSpentMicroUsd: 1_000_000_000 })).toEqual({ allowed: true });
  });

  it('counts calls still running against both caps, and says so', () => {
    budgets.update({ sessionCapMicroUsd: 500_000 });
    expect(check({ sessionSpentMicroUsd: 100_000, sessionReservedMicroUsd: 300_000 })).toEqual({ allowed: true });
    expect(check({ sessionSpentMicroUsd: 100_000, sessionReservedMicroUsd: 300_001 })).toMatchObject({ allowed: false, cap: 'session' });
    expect(check({ sessionSpentMicroUsd: 100_000, sessionReservedMicroUsd: 400_000 })).toEqual({
      allowed: false,
      code: 'budget_exceeded',
      cap: 'session',
      capMicroUsd: 500_000,
      spentMicroUsd: 100_000,
      message:
        'This summary costs $0.10, which would take this session to $0.60 ($0.40 of it for calls still running), over its $0.50 cap. Raise the cap in Settings to continue.',
    });
    const smith = projects.create({ name: 'Smith appraisal', spendingCapMicroUsd: 200_000 });
    expect(check({ projectId: smith.id, projectReservedMicroUsd: 100_000 })).toEqual({ allowed: true });
    expect(check({ projectId: smith.id, projectSpentMicroUsd: 50_000, projectReservedMicroUsd: 100_000 })).toMatchObject({
      cap: 'project',
      spentMicroUsd: 50_000,
      message: expect.stringContaining('to $0.25 ($0.10 of it for calls still running)'),
    });
    expect(() => check({ sessionReservedMicroUsd: -1 })).toThrow(/sessionReservedMicroUsd/);
  });

  it('checks the session cap before the project cap, and caps before confirmation', () => {
    const project = projects.create({ name: 'P', spendingCapMicroUsd: 0 });
    budgets.update({ sessionCapMicroUsd: 0 });
    expect(check({ projectId: project.id, confirmed: false })).toMatchObject({ cap: 'session' });
    budgets.update({ sessionCapMicroUsd: null });
    expect(check({ projectId: project.id, confirmed: false })).toMatchObject({ cap: 'project' });
  });

  it('refuses a call for a project that does not exist', () => {
    expect(() => check({ projectId: 'gone' })).toThrow(/no longer exists/);
  });

  it('asks for confirmation from the threshold up, unless confirmed', () => {
    expect(check({ confirmed: false })).toEqual({
      allowed: false,
      code: 'confirmation_required',
      expectedCostMicroUsd: SUMMARY,
      message: 'This summary costs $0.10. Confirm to buy it.',
    });
    expect(check({ confirmed: true })).toEqual({ allowed: true });
    // A search page below the default threshold goes through unconfirmed.
    expect(check({ operation: 'v4.search', expectedCostMicroUsd: 20_000, confirmed: false })).toEqual({ allowed: true });
  });

  it('says a price learnt from the last call as what that call cost, in refusals and confirmations', () => {
    expect(check({ confirmed: false, learnt: true })).toMatchObject({ code: 'confirmation_required', message: 'This summary costs about $0.10 (what your last call cost). Confirm to buy it.' });
    budgets.update({ sessionCapMicroUsd: 20_000 });
    expect(check({ operation: 'v4.search', expectedCostMicroUsd: 25_000, learnt: true })).toMatchObject({
      code: 'budget_exceeded',
      message: 'This search page costs about $0.025 (what your last call cost), which would take this session to $0.025, over its $0.02 cap. Raise the cap in Settings to continue.',
    });
  });

  it('threshold 0 confirms every charged call; null never asks', () => {
    budgets.update({ confirmationThresholdMicroUsd: 0 });
    expect(check({ operation: 'v4.search', expectedCostMicroUsd: 1, confirmed: false })).toMatchObject({
      code: 'confirmation_required',
      message: 'This search page costs $0.000001. Confirm to buy it.',
    });
    budgets.update({ confirmationThresholdMicroUsd: null });
    expect(check({ expectedCostMicroUsd: 50_000_000, confirmed: false })).toEqual({ allowed: true });
  });

  it('uses a given label, or "call" when the operation is unknown', () => {
    expect(check({ label: 'subject report', expectedCostMicroUsd: 250_000, confirmed: false })).toMatchObject({
      message: 'This subject report costs $0.25. Confirm to buy it.',
    });
    const { operation: _omit, ...withoutOperation } = {
      expectedCostMicroUsd: SUMMARY,
      sessionSpentMicroUsd: 0,
      projectId: null,
      projectSpentMicroUsd: 0,
      confirmed: false,
      operation: 'v4.summary' as const,
    };
    expect(budgets.checkSpend(withoutOperation)).toMatchObject({ message: 'This call costs $0.10. Confirm to buy it.' });
  });

  describe('a call whose price is not known', () => {
    const unknown = (overrides: Partial<SpendCheckInput> = {}) =>
      check({ expectedCostMicroUsd: null, operation: 'v2.traverseRelationships', confirmed: false, ...overrides });

    it('is refused before sending when less than the bound remains of the session cap, offering to raise it', () => {
      budgets.update({ sessionCapMicroUsd: 20_000 });
      expect(unknown()).toEqual({
        allowed: false,
        code: 'budget_exceeded',
        cap: 'session',
        capMicroUsd: 20_000,
        spentMicroUsd: 0,
        message:
          'The price of this relationship lookup is not known, and this session has $0.02 left of its $0.02 cap: ' +
          'less than $1.00, the most Plat allows for a call whose price is not known. Raise the cap in Settings to continue.',
      });
      // Confirming never lifts a cap.
      expect(unknown({ confirmed: true })).toMatchObject({ allowed: false, code: 'budget_exceeded' });
    });

    it('is counted at the largest charge seen for it, once one was seen', () => {
      budgets.update({ sessionCapMicroUsd: 20_000 });
      expect(unknown({ largestSeenMicroUsd: 5_000, sessionSpentMicroUsd: 15_000 })).toMatchObject({ allowed: false, code: 'confirmation_required' });
      expect(unknown({ largestSeenMicroUsd: 5_000, sessionSpentMicroUsd: 15_001 })).toMatchObject({
        allowed: false,
        code: 'budget_exceeded',
        message: expect.stringContaining('less than $0.005, the largest charge seen for it on this service'),
      });
    });

    it("is held to the project's cap too, and uses the bound the person set", () => {
      budgets.update({ unknownPriceBoundMicroUsd: 50_000 });
      const project = projects.create({ name: 'Kuipers', spendingCapMicroUsd: 100_000 });
      expect(unknown({ projectId: project.id, projectSpentMicroUsd: 50_000, confirmed: true })).toEqual({ allowed: true });
      expect(unknown({ projectId: project.id, projectSpentMicroUsd: 50_001, confirmed: true })).toMatchObject({ allowed: false, cap: 'project' });
    });

    it('asks first even under the confirmation threshold, or with none, saying what was seen', () => {
      budgets.update({ confirmationThresholdMicroUsd: null });
      expect(unknown()).toEqual({
        allowed: false,
        code: 'confirmation_required',
        expectedCostMicroUsd: null,
        message: "This relationship lookup's price is not known; no charge for it seen yet. Confirm to buy it.",
      });
      expect(unknown({ largestSeenMicroUsd: 5_000 })).toMatchObject({
        message: "This relationship lookup's price is not known; the largest charge seen for this operation was $0.005. Confirm to buy it.",
      });
      expect(unknown({ confirmed: true })).toEqual({ allowed: true });
    });
  });

  it('counts a known price at the largest charge seen for it when that is more', () => {
    budgets.update({ sessionCapMicroUsd: 20_000 });
    expect(check({ expectedCostMicroUsd: 20_000, largestSeenMicroUsd: 25_000, operation: 'v4.search' })).toMatchObject({
      allowed: false,
      message: 'This search page may cost $0.025 (the largest charge seen for it), which would take this session to $0.025, over its $0.02 cap. Raise the cap in Settings to continue.',
    });
    expect(budgets.spendBound(20_000, 25_000)).toBe(25_000);
    expect(budgets.spendBound(0, 25_000)).toBe(0);
    expect(budgets.spendBound(null, null)).toBe(1_000_000);
  });

  it('refuses malformed amounts rather than guessing', () => {
    expect(() => check({ expectedCostMicroUsd: 0.5 })).toThrow(RangeError);
    expect(() => check({ sessionSpentMicroUsd: -1 })).toThrow(RangeError);
  });

  it('never lets spending pass a cap (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (cap, spent, expected) => {
          budgets.update({ sessionCapMicroUsd: cap });
          const decision = check({ sessionSpentMicroUsd: spent, expectedCostMicroUsd: expected });
          if (decision.allowed) expect(expected === 0 || spent + expected <= cap).toBe(true);
          else expect(spent + expected).toBeGreaterThan(cap);
        },
      ),
      { numRuns: 200 },
    );
  });
});
