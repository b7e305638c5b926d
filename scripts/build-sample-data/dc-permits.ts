// DC permits: address (with MAR id), parcel or unit of the permit's SSL, OTR properties of that SSL.
// A placeholder SSL keys nothing (permitSslKey): the permit keeps its address, and the ids a parcel
// or unit of it would have are listed (meta `placeholder_ssl_keys`) so the service can say why no
// such entity exists when one is asked for.
import { AREA_DC, normaliseAddress, permitSslKey } from '../../electron/local-service/sample-keys.ts';
import { num, str } from './datasets.ts';
import { dcLandId } from './dc-otr.ts';
import type { DcIndex } from './dc-otr.ts';
import { entityKeys } from './ids.ts';
import type { Inputs } from './inputs.ts';
import { sameRow, sslMatch } from './model.ts';
import type { EntityDraft, SampleGraph } from './model.ts';
import type { SampleRecords } from './records.ts';

/** A placeholder SSL and the permits that name it (meta `placeholder_ssl_keys`). */
export interface PlaceholderKey {
  ssl: string;
  entity_id: string;
  record_refs: string[];
}

/** Adds the permits' entities and links; returns the placeholder SSLs, by canonical SSL. */
export function buildDcPermits(inputs: Inputs, graph: SampleGraph, { recordOf }: SampleRecords, dc: DcIndex): Map<string, PlaceholderKey> {
  const { otrRows, permitRows } = inputs;
  const { entity, entityByKey, identify, locate, link } = graph;
  const { otrPropsBySsl, dcLand } = dc;
  const placeholderKeys = new Map<string, PlaceholderKey>();
  for (const row of permitRows) {
    const v = row.values;
    const permit = recordOf(row, 'permit');
    if (!permit) continue;
    const address = normaliseAddress(str(v['FULL_ADDRESS']));
    let addr: EntityDraft | null = null;
    if (address?.hasHouseNumber) {
      addr = entity('addr', entityKeys.dcAddress(address.premise), AREA_DC, row);
      identify(addr, 'address', address.premise);
      const mar = num(v['MARADDRESSREPOSITORYID']);
      if (mar !== null && mar > 0) identify(addr, 'mar_id', String(mar));
      locate(addr, permit, 'permit_point');
      link(addr, 'permitted_by', permit, sameRow, [permit]);
    }
    const { ssl, placeholder } = permitSslKey(v);
    if (placeholder) {
      const refused = placeholderKeys.get(placeholder.canonical) ?? { ssl: placeholder.canonical, entity_id: dcLandId(placeholder), record_refs: [] };
      refused.record_refs.push(permit.ref);
      placeholderKeys.set(placeholder.canonical, refused);
    }
    if (ssl) {
      const land = dcLand(ssl, row);
      if (land) {
        locate(land, permit, 'permit_point');
        link(land, 'permitted_by', permit, sameRow, [permit]);
        if (addr) link(land, 'served_by', addr, sameRow, [permit]);
      }
      for (const property of otrPropsBySsl.get(ssl.canonical) ?? []) {
        row.q.add(property.no);
        link(property, 'permitted_by', permit, sslMatch, [permit]);
      }
    }
  }

  // An OTR property at a permit's premise whose SSL the permit does not contradict (the permit has
  // no SSL) gets a likely, not certain, permit link. A differing SSL means another lot: no link.
  const otrPropsByPremise = new Map<string, EntityDraft[]>();
  for (const row of otrRows) {
    const address = normaliseAddress(str(row.values['address']));
    if (!address?.hasHouseNumber) continue;
    const property = entityByKey.get(entityKeys.dcProperty(str(row.values['ssl_as_published'])));
    if (!property) continue;
    let list = otrPropsByPremise.get(address.premise);
    if (!list) otrPropsByPremise.set(address.premise, (list = []));
    list.push(property);
  }
  for (const row of permitRows) {
    const permit = recordOf(row, 'permit');
    const address = normaliseAddress(str(row.values['FULL_ADDRESS']));
    if (!permit || !address?.hasHouseNumber) continue;
    const permitSsl = str(row.values['SSL_CANONICAL']);
    for (const property of otrPropsByPremise.get(address.premise) ?? []) {
      if (permitSsl !== '') continue; // linked by SSL above, or another lot
      row.q.add(property.no);
      link(property, 'permitted_by', permit, { method: 'address_match', confidence: 0.8, basis: address.premise }, [permit]);
    }
  }
  return placeholderKeys;
}
