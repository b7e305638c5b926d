// Session cap and confirmation threshold.
import type { BudgetPolicy } from '../budgets.ts';
import type { IpcHandlers } from '../ipc-dispatch.ts';

export function budgetHandlers(deps: { budgets: BudgetPolicy }): Pick<IpcHandlers, 'getBudgets' | 'setBudgets'> {
  return {
    getBudgets: async () => deps.budgets.settings(),
    setBudgets: async (request) => deps.budgets.update(request),
  };
}
