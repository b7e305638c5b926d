// One entity as v2 and v4 show it, and why an id the sample refuses has no entity.
import { AREA_CODES, AREA_DC, ENTITY_PREFIX_KIND, IDENTIFIER_SCHEMES } from '../sample-keys.ts';
import type { AreaUid, EntityPrefix } from '../sample-keys.ts';
import type { CellValue, SampleEntity } from './interface.ts';
import type { FactCollector } from './facts.ts';
import { isoDate, OverRows } from './rows.ts';
import type { RowReader } from './rows.ts';

export class Entities extends OverRows {
  private readonly facts: FactCollector;
  /** Ids a parcel or unit of a placeholder SSL would have (meta `placeholder_ssl_keys`), read on first use. */
  private placeholderKeys: Map<string, { ssl: string; entity_id: string; record_refs: string[] }> | null = null;

  constructor(reader: RowReader, facts: FactCollector) {
    super(reader);
    this.facts = facts;
  }

  getEntity(entityId: string): SampleEntity | null {
    const e = this.reader.entityRow(entityId);
    if (!e) return null;
    const prefix = e.prefix as EntityPrefix;
    const identifiers = (this.reader.statements.identifiers.all(e.entity_no) as Array<{ scheme: number; value: string }>).map((i) => ({
      scheme: IDENTIFIER_SCHEMES[i.scheme - 1] ?? 'address',
      value: i.value,
    }));
    const recNos = this.reader.recordNosAbout(e);
    const facts = this.facts.collectFacts(e, recNos);
    const attributes: Record<string, CellValue> = {};
    for (const fact of facts) if (!fact.synthetic && !(fact.field in attributes)) attributes[fact.field] = fact.value;
    const sourceRefs = recNos.map((recNo) => this.reader.recordRefOf(recNo));
    const sources = [...new Set(recNos.map((recNo) => this.reader.sourceOfRec(recNo)))].map((s) => s.citation);
    return {
      entity_id: entityId,
      prefix,
      entity_kind: ENTITY_PREFIX_KIND[prefix],
      area_uid: (AREA_CODES[e.area - 1] ?? AREA_DC) as AreaUid,
      status: 'current',
      coverage_status: 'available',
      identifiers,
      attributes,
      source_refs: sourceRefs,
      sources,
      valid_from: isoDate(e.valid_from),
      valid_to: null,
      location: this.reader.entityLocation(e),
    };
  }

  missingEntityNote(entityId: string): string | null {
    if (this.placeholderKeys === null) {
      const row = this.reader.db.prepare("SELECT value FROM meta WHERE key = 'placeholder_ssl_keys'").get() as { value: string } | undefined;
      // A database built before the build listed them simply knows none.
      const listed = row ? (JSON.parse(row.value) as Array<{ ssl: string; entity_id: string; record_refs: string[] }>) : [];
      this.placeholderKeys = new Map(listed.map((key) => [key.entity_id, key]));
    }
    const key = this.placeholderKeys.get(entityId.trim().toLowerCase());
    if (!key) return null;
    const kind = key.entity_id.startsWith('unit_') ? 'unit' : 'parcel';
    const permits = key.record_refs.length === 1 ? 'the one permit that gives it keeps' : `the ${key.record_refs.length} permits that give it keep`;
    return `${entityId} would be the ${kind} of SSL ${key.ssl.replace(/\s+/g, ' ')}, a placeholder (square or lot 0000), not a valid parcel key: the sample makes no ${kind} of it, and ${permits} only ${key.record_refs.length === 1 ? 'its address' : 'their own addresses'}.`;
  }
}
