// DC OTR rows: property, tax account, parcel or unit, address; the owner holdings that owner links
// are read from.
import { AREA_DC, isCondoUnitSsl, isPlaceholderSsl, normaliseAddress, normaliseOwnerName, parseSsl } from '../../electron/local-service/sample-keys.ts';
import type { ParsedSsl } from '../../electron/local-service/sample-keys.ts';
import { num, str } from './datasets.ts';
import { entityId, entityKeys } from './ids.ts';
import type { Inputs } from './inputs.ts';
import { sameRow, sslMatch } from './model.ts';
import type { EntityDraft, Row, SampleGraph } from './model.ts';
import type { SampleRecords } from './records.ts';

export interface OwnerHolding {
  ownerKey: string;
  property: EntityDraft;
  account: EntityDraft;
  row: Row;
}

/** What the DC builders share: OTR properties and DC land by SSL, and the owner holdings. */
export interface DcIndex {
  otrPropsBySsl: Map<string, EntityDraft[]>;
  dcLandBySsl: Map<string, EntityDraft>;
  ownerHoldings: OwnerHolding[];
  /** The parcel or unit of an SSL (made on first sight), or null for an SSL that names no land. */
  dcLand: (ssl: ParsedSsl, row: Row) => EntityDraft | null;
}

export const dcLandId = (ssl: ParsedSsl): string => (isCondoUnitSsl(ssl) ? entityId('unit', entityKeys.dcUnit(ssl)) : entityId('parc', entityKeys.dcParcel(ssl)));

export function buildDcOtr(inputs: Inputs, graph: SampleGraph, { recordOf }: SampleRecords): DcIndex {
  const { otrRows, squareRows } = inputs;
  const { entity, identify, locate, link } = graph;
  const squarePoint = new Map<string, { lat: number; lon: number; row: Row }>();
  for (const row of squareRows) {
    const lat = num(row.values['lat']);
    const lon = num(row.values['lon']);
    if (lat !== null && lon !== null) squarePoint.set(`${str(row.values['square'])}${str(row.values['suffix'])}`, { lat, lon, row });
  }
  const squareRecord = (row: Row) => {
    const sq = squarePoint.get(`${str(row.values['square'])}${str(row.values['suffix'])}`);
    return sq ? recordOf(sq.row, 'tax_square') : undefined;
  };
  const otrPropsBySsl = new Map<string, EntityDraft[]>();
  const dcLandBySsl = new Map<string, EntityDraft>();
  const ownerHoldings: OwnerHolding[] = [];
  const dcLand = (ssl: ParsedSsl, row: Row): EntityDraft | null => {
    // A possessory interest is no land; a placeholder (square or lot 0000) names none.
    if (ssl.form === 'pi' || isPlaceholderSsl(ssl)) return null;
    const e = isCondoUnitSsl(ssl) ? entity('unit', entityKeys.dcUnit(ssl), AREA_DC, row) : entity('parc', entityKeys.dcParcel(ssl), AREA_DC, row);
    identify(e, 'ssl', ssl.canonical);
    dcLandBySsl.set(ssl.canonical, e);
    return e;
  };
  for (const row of otrRows) {
    const v = row.values;
    const ssl = parseSsl(str(v['ssl']));
    if (!ssl) throw new Error(`OTR row ${row.key}: unparseable ssl "${str(v['ssl'])}"`);
    const ownership = recordOf(row, 'ownership');
    const assessment = recordOf(row, 'assessment');
    const square = squareRecord(row);
    const address = normaliseAddress(str(v['address']));

    const property = entity('prop', entityKeys.dcProperty(str(v['ssl_as_published'])), AREA_DC, row);
    identify(property, 'ssl', ssl.canonical);
    // As published only where it differs from the canonical form (the scraper's BD form).
    if (str(v['ssl_as_published']) !== ssl.canonical) identify(property, 'ssl_as_published', str(v['ssl_as_published']));
    if (address?.hasHouseNumber) identify(property, 'address', address.full);
    locate(property, square ?? ownership, 'square_centroid');
    let list = otrPropsBySsl.get(ssl.canonical);
    if (!list) otrPropsBySsl.set(ssl.canonical, (list = []));
    list.push(property);

    const account = entity('acct', entityKeys.dcAccount(ssl), AREA_DC, row);
    identify(account, 'ssl', ssl.canonical);
    locate(account, square ?? ownership, 'square_centroid');
    link(property, 'taxed_in', account, sameRow, [ownership, assessment]);

    const land = dcLand(ssl, row);
    if (land) {
      if (land.prefix === 'unit' && address?.unit) identify(land, 'unit_designator', address.unit);
      if (land.prefix === 'unit' && address?.hasHouseNumber) identify(land, 'address', address.full);
      locate(land, square ?? ownership, 'square_centroid');
      link(property, 'located_in', land, sslMatch, [ownership]);
      link(account, 'assessed_in', land, sslMatch, [assessment ?? ownership]);
    }
    if (address?.hasHouseNumber) {
      const addr = entity('addr', entityKeys.dcAddress(address.premise), AREA_DC, row);
      identify(addr, 'address', address.premise);
      locate(addr, square ?? ownership, 'square_centroid');
      link(property, 'served_by', addr, sameRow, [ownership]);
      if (land) link(land, 'served_by', addr, sameRow, [ownership]);
    }
    const ownerKey = normaliseOwnerName(str(v['owner']));
    if (ownerKey !== '') ownerHoldings.push({ ownerKey, property, account, row });
  }
  return { otrPropsBySsl, dcLandBySsl, ownerHoldings, dcLand };
}
