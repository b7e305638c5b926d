// City of Alexandria: address points first, so parcels can take their location; then parcels with
// their property, tax account and address.
import { AREA_ALEXANDRIA, normaliseAddress } from '../../electron/local-service/sample-keys.ts';
import { str } from './datasets.ts';
import { entityKeys } from './ids.ts';
import type { Inputs } from './inputs.ts';
import { sameRow } from './model.ts';
import type { RecordDraft, SampleGraph } from './model.ts';
import type { SampleRecords } from './records.ts';

export function buildAlexandria(inputs: Inputs, graph: SampleGraph, { recordOf }: SampleRecords): void {
  const { vaParcelRows, vaPointRows } = inputs;
  const { entity, identify, locate, link } = graph;
  const vaPointByAddress = new Map<string, RecordDraft>();
  const vaPointByObjectId = new Map<string, RecordDraft>();
  for (const row of vaPointRows) {
    const point = recordOf(row, 'address');
    const address = normaliseAddress(str(row.values['full_address']));
    if (!point || !address?.hasHouseNumber) continue;
    const addr = entity('addr', entityKeys.vaAddress(address.premise), AREA_ALEXANDRIA, row);
    identify(addr, 'address', address.premise);
    identify(addr, 'address_point_objectid', str(row.values['objectid']));
    locate(addr, point, 'address_point');
    vaPointByObjectId.set(str(row.values['objectid']), point);
    if (!vaPointByAddress.has(address.full)) vaPointByAddress.set(address.full, point);
  }
  for (const row of vaParcelRows) {
    const v = row.values;
    const parcelRecord = recordOf(row, 'parcel');
    if (!parcelRecord) continue;
    const accountNo = str(v['account_no']);
    const address = normaliseAddress(str(v['address']));
    // The published match (address_point_objectid) first; else this build's normalised match, by
    // full address, then by premise (a condominium unit takes its building's point).
    const point = vaPointByObjectId.get(str(v['address_point_objectid']))
      ?? (address ? (vaPointByAddress.get(address.full) ?? vaPointByAddress.get(address.premise)) : undefined);
    const property = entity('prop', entityKeys.vaProperty(accountNo), AREA_ALEXANDRIA, row);
    const parcel = entity('parc', entityKeys.vaParcel(accountNo), AREA_ALEXANDRIA, row);
    const account = entity('acct', entityKeys.vaAccount(accountNo), AREA_ALEXANDRIA, row);
    for (const e of [property, parcel, account]) {
      identify(e, 'account_no', accountNo);
      locate(e, point, 'address_point');
    }
    if (address?.hasHouseNumber) identify(property, 'address', address.full);
    link(property, 'located_in', parcel, sameRow, [parcelRecord]);
    link(property, 'taxed_in', account, sameRow, [parcelRecord]);
    link(account, 'assessed_in', parcel, sameRow, [parcelRecord]);
    if (address?.hasHouseNumber) {
      const addr = entity('addr', entityKeys.vaAddress(address.premise), AREA_ALEXANDRIA, row);
      identify(addr, 'address', address.premise);
      locate(addr, point, 'address_point');
      link(property, 'served_by', addr, sameRow, [parcelRecord]);
      link(parcel, 'served_by', addr, sameRow, [parcelRecord]);
      if (point) point.row.q.add(property.no);
    }
  }
}
