// Whether a characteristic drives numbers: a value the sample copied from another house (status
// `synthetic`) is shown, marked, but drives no adjustment and no regression unless the appraiser
// accepted it for that row, for that comp or for the whole grid. The grid, the regression and their
// exports all ask here, so they cannot disagree about which numbers were used.
import type { ComparablesWorkfile, GridProperty, GridRowKey } from './model.ts';

export type SyntheticAcceptance = Pick<ComparablesWorkfile, 'syntheticAccepted'>;

/** The appraiser's acceptance of a copied value in this row for this property, or null. */
export function syntheticAcceptanceFor(workfile: SyntheticAcceptance, row: GridRowKey, propertyId: string) {
  const accepted = workfile.syntheticAccepted ?? [];
  return accepted.find((act) => act.row === row && act.compId === propertyId) ?? accepted.find((act) => act.row === row && act.compId === null) ?? null;
}

/** True when the row's value is one the sample copied from another house (synthetic). */
export function isCopied(property: GridProperty, row: GridRowKey): boolean {
  return property.values[row].status === 'synthetic';
}

/** True when the row's value may drive an adjustment or the regression: not copied, or copied and accepted. */
export function drivesNumbers(property: GridProperty, row: GridRowKey, workfile: SyntheticAcceptance): boolean {
  if (!isCopied(property, row)) return true;
  return syntheticAcceptanceFor(workfile, row, property.id) !== null;
}
