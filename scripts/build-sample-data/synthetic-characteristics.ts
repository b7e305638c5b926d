// Synthetic characteristics: the OTR lots have none, so each residential record lot takes those of
// a nearby real CAMA record of the same use code (computed before records so the rows get record
// numbers). Marked synthetic throughout; see the source's description in sources.ts.
import { distanceMeters, isCondoUnitSsl, parseSsl } from '../../electron/local-service/sample-keys.ts';
import { DATASETS, num, str } from './datasets.ts';
import type { CellValue } from './datasets.ts';
import type { DcIndex } from './dc-otr.ts';
import { recordRef } from './ids.ts';
import type { Inputs } from './inputs.ts';
import type { Row } from './model.ts';

/** CAMA columns copied into a synthetic characteristics row. */
const IMPUTED_CAMA_FIELDS = DATASETS.synthetic.fields.map((field) => field.name).filter((name) => /^[A-Z_]+$/.test(name));

/** Imputation looks no further than this from the square centroid. */
const IMPUTATION_MAX_DISTANCE_M = 1000;

/** The lot each synthetic row was imputed for. */
export type ImputedLots = Map<Row, { ssl: string }>;

/** Fills `inputs.syntheticRows`, numbered after every input row, and says which lot each is for. */
export function imputeCharacteristics(inputs: Inputs): ImputedLots {
  const { otrRows, camaRows, syntheticRows } = inputs;
  let rowNo = inputs.lastRowNo;
  const camaByUse = new Map<string, Array<{ row: Row; index: number; lat: number; lon: number }>>();
  camaRows.forEach((row, index) => {
    const lat = num(row.values['LATITUDE']);
    const lon = num(row.values['LONGITUDE']);
    const use = str(row.values['USECODE']);
    if (lat === null || lon === null || use === '') return;
    let list = camaByUse.get(use);
    if (!list) camaByUse.set(use, (list = []));
    list.push({ row, index, lat, lon });
  });
  // One imputation per record lot (canonical SSL), from the row OTR publishes in canonical form.
  const lotRowBySsl = new Map<string, Row>();
  for (const row of otrRows) {
    const ssl = parseSsl(str(row.values['ssl']));
    if (!ssl || ssl.form !== 'square' || isCondoUnitSsl(ssl)) continue;
    const existing = lotRowBySsl.get(ssl.canonical);
    const canonicalForm = !str(row.values['ssl_as_published']).startsWith('BD');
    if (!existing || (canonicalForm && str(existing.values['ssl_as_published']).startsWith('BD'))) lotRowBySsl.set(ssl.canonical, row);
  }
  const imputationGroups = new Map<string, Array<{ ssl: string; row: Row }>>();
  for (const [ssl, row] of lotRowBySsl) {
    const use = str(row.values['use_code']);
    if (!camaByUse.has(use) || num(row.values['square_lat']) === null) continue;
    const group = `${str(row.values['square'])}${str(row.values['suffix'])}|${use}`;
    let list = imputationGroups.get(group);
    if (!list) imputationGroups.set(group, (list = []));
    list.push({ ssl, row });
  }
  const camaRecordRef = (row: Row) => recordRef('dc_cama_residential', row.key);
  const imputedFor = new Map<Row, { ssl: string }>();
  for (const group of [...imputationGroups.keys()].sort()) {
    const members = (imputationGroups.get(group) ?? []).sort((a, b) => (a.ssl < b.ssl ? -1 : a.ssl > b.ssl ? 1 : 0));
    const first = members[0];
    if (!first) continue;
    const lat = num(first.row.values['square_lat']) ?? 0;
    const lon = num(first.row.values['square_lon']) ?? 0;
    const use = str(first.row.values['use_code']);
    const nearest = (camaByUse.get(use) ?? [])
      .map((c) => ({ c, d: distanceMeters(lat, lon, c.lat, c.lon) }))
      .filter((x) => x.d <= IMPUTATION_MAX_DISTANCE_M)
      .sort((a, b) => a.d - b.d || a.c.index - b.c.index)
      .slice(0, members.length);
    nearest.forEach(({ c, d }, rank) => {
      const member = members[rank];
      if (!member) return;
      const values: Record<string, CellValue> = {
        ssl: member.ssl,
        use_code: use,
        method: 'nearest_cama_same_usecode',
        cama_record_ref: camaRecordRef(c.row),
        distance_m: Math.round(d),
        rank_in_square: rank + 1,
        square_lat: lat,
        square_lon: lon,
      };
      for (const name of IMPUTED_CAMA_FIELDS) values[name] = c.row.values[name] ?? null;
      const row: Row = { no: 0, dataset: DATASETS.synthetic, key: member.ssl, values, q: new Set() };
      syntheticRows.push(row);
      imputedFor.set(row, { ssl: member.ssl });
    });
  }
  syntheticRows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const row of syntheticRows) row.no = ++rowNo;
  return imputedFor;
}

/** Synthetic characteristics are about the record lot and its OTR properties. */
export function linkImputedLots(syntheticRows: Row[], imputedFor: ImputedLots, dc: DcIndex): void {
  const { dcLandBySsl, otrPropsBySsl } = dc;
  for (const row of syntheticRows) {
    const ssl = imputedFor.get(row)?.ssl ?? '';
    const land = dcLandBySsl.get(ssl);
    if (land) row.q.add(land.no);
    for (const property of otrPropsBySsl.get(ssl) ?? []) row.q.add(property.no);
  }
}
