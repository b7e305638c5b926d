// Links between entities: an entity's relationships (v2, with refs and sources), the v4 walk over
// entity-to-entity links, and the v2 traversal. Same-owner links come from the owner directory.
import { LINK_METHODS, METHOD_PRECISION, PREDICATES, relationshipRef, sameOwnerConfidence } from '../sample-keys.ts';
import { ENTITY_PREFIX_KIND } from '../sample-keys.ts';
import type { EntityPrefix, LinkMethod, Predicate } from '../sample-keys.ts';
import type { ConnectedEntity, Direction, SampleRelationship, SampleSource, Traversal, TraversalNode } from './interface.ts';
import { SampleStoreError } from './interface.ts';
import type { OwnerDirectory } from './owners.ts';
import { OverRows } from './rows.ts';
import type { EdgeRow, RowReader } from './rows.ts';

export class Relationships extends OverRows {
  private readonly owners: OwnerDirectory;

  constructor(reader: RowReader, owners: OwnerDirectory) {
    super(reader);
    this.owners = owners;
  }

  private edgeRelationship(edge: EdgeRow, direction: 'out' | 'in'): SampleRelationship {
    const predicate = PREDICATES[edge.predicate - 1] ?? 'located_in';
    const method = LINK_METHODS[edge.method - 1] ?? 'same_row';
    const subjectRef = this.reader.entityIdOf(edge.subject_no);
    const objectIsEntity = edge.object > 0;
    const objectRef = objectIsEntity ? this.reader.entityIdOf(edge.object) : this.reader.recordRefOf(-edge.object);
    const recNos = JSON.parse(edge.source_rec_nos) as number[];
    const sources = recNos.map((recNo) => this.reader.sourceOfRec(recNo));
    const validFrom = sources.reduce((min, s) => (s.source.as_of < min ? s.source.as_of : min), '9999-12-31T00:00:00Z').slice(0, 10);
    return {
      relationship_ref: relationshipRef(subjectRef, predicate, objectRef),
      subject_ref: subjectRef,
      predicate,
      object_ref: objectRef,
      object_type: objectIsEntity ? 'entity' : 'record',
      direction,
      precision: METHOD_PRECISION[method],
      method,
      confidence: edge.confidence,
      status: 'current',
      valid_from: validFrom,
      valid_to: null,
      source_refs: recNos.map((recNo) => this.reader.recordRefOf(recNo)),
      basis: edge.basis,
      explanation: explain(predicate, method, edge.basis, sources[0]?.source),
    };
  }

  private ownerRelationships(accountNo: number): Array<{ other: number; relationship: SampleRelationship }> {
    const owners = this.owners.index();
    const out: Array<{ other: number; relationship: SampleRelationship }> = [];
    const seen = new Set<number>();
    for (const ownerNo of owners.byAccount.get(accountNo) ?? []) {
      const holdings = owners.holdings[ownerNo - 1] ?? [];
      const key = owners.keys[ownerNo - 1] ?? '';
      const others = [...new Set(holdings.map((h) => h.account))].filter((a) => a !== accountNo).sort((a, b) => a - b);
      for (const other of others) {
        if (seen.has(other)) continue;
        seen.add(other);
        // One undirected link per pair: the lower entity number is the subject.
        const [subjectNo, objectNo] = accountNo < other ? [accountNo, other] : [other, accountNo];
        const subjectRef = this.reader.entityIdOf(subjectNo);
        const objectRef = this.reader.entityIdOf(objectNo);
        const rows = holdings.filter((h) => h.account === subjectNo || h.account === objectNo).map((h) => h.row);
        const recNos = [...new Set(rows)].sort((a, b) => a - b).flatMap((row) => this.reader.recordsOfRow(row).filter((r) => this.reader.sourceOfRec(r).source.kind === 'ownership'));
        out.push({
          other,
          relationship: {
            relationship_ref: relationshipRef(subjectRef, 'same_owner', objectRef),
            subject_ref: subjectRef,
            predicate: 'same_owner',
            object_ref: objectRef,
            object_type: 'entity',
            direction: subjectNo === accountNo ? 'out' : 'in',
            precision: 'approximate',
            method: 'owner_name_match',
            confidence: sameOwnerConfidence(key),
            status: 'current',
            valid_from: (this.reader.sourceById.get('dc_otr_ownership')?.source.as_of ?? '').slice(0, 10),
            valid_to: null,
            source_refs: recNos.map((recNo) => this.reader.recordRefOf(recNo)),
            basis: key,
            explanation: explain('same_owner', 'owner_name_match', key, this.reader.sourceById.get('dc_otr_ownership')?.source),
          },
        });
      }
    }
    return out;
  }

  private relationshipsOf(entityNo: number, direction: Direction, predicates: ReadonlySet<string> | null, includeRecordObjects: boolean): Array<{ other: number | null; relationship: SampleRelationship }> {
    const out: Array<{ other: number | null; relationship: SampleRelationship }> = [];
    const wanted = (predicate: number) => predicates === null || predicates.has(PREDICATES[predicate - 1] ?? '');
    if (direction !== 'in') {
      for (const edge of this.reader.statements.edgesOut.all(entityNo) as unknown as EdgeRow[]) {
        if (!wanted(edge.predicate) || (edge.object < 0 && !includeRecordObjects)) continue;
        out.push({ other: edge.object > 0 ? edge.object : null, relationship: this.edgeRelationship(edge, 'out') });
      }
    }
    if (direction !== 'out') {
      for (const edge of this.reader.statements.edgesIn.all(entityNo) as unknown as EdgeRow[]) {
        if (!wanted(edge.predicate)) continue;
        out.push({ other: edge.subject_no, relationship: this.edgeRelationship(edge, 'in') });
      }
    }
    if (predicates === null || predicates.has('same_owner')) {
      for (const link of this.ownerRelationships(entityNo)) {
        if (direction === 'both' || link.relationship.direction === direction) out.push(link);
      }
    }
    return out;
  }

  relationships(entityId: string, options: { direction?: Direction; predicates?: readonly string[]; includeRecordObjects?: boolean } = {}): SampleRelationship[] {
    const e = this.reader.entityRow(entityId);
    if (!e) return [];
    const predicates = options.predicates && options.predicates.length > 0 ? new Set(options.predicates) : null;
    return this.relationshipsOf(e.entity_no, options.direction ?? 'both', predicates, options.includeRecordObjects ?? true).map((r) => r.relationship);
  }

  /** Entity-to-entity links of one entity without refs or sources: what a walk needs, cheaply. */
  private links(entityNo: number, predicates: ReadonlySet<string> | null): Array<{ other: number; predicate: Predicate; out: boolean; confidence: number }> {
    const out: Array<{ other: number; predicate: Predicate; out: boolean; confidence: number }> = [];
    const wanted = (p: Predicate) => predicates === null || predicates.has(p);
    for (const [predicateCode, object, confidence] of this.reader.statements.linksOut.all(entityNo) as unknown as Array<[number, number, number]>) {
      const predicate = PREDICATES[predicateCode - 1] ?? 'located_in';
      if (wanted(predicate)) out.push({ other: object, predicate, out: true, confidence });
    }
    for (const [subject, predicateCode, confidence] of this.reader.statements.linksIn.all(entityNo) as unknown as Array<[number, number, number]>) {
      const predicate = PREDICATES[predicateCode - 1] ?? 'located_in';
      if (wanted(predicate)) out.push({ other: subject, predicate, out: false, confidence });
    }
    if (wanted('same_owner')) {
      const owners = this.owners.index();
      const seen = new Set<number>([entityNo]);
      for (const ownerNo of owners.byAccount.get(entityNo) ?? []) {
        const confidence = sameOwnerConfidence(owners.keys[ownerNo - 1] ?? '');
        for (const h of owners.holdings[ownerNo - 1] ?? []) {
          if (seen.has(h.account)) continue;
          seen.add(h.account);
          out.push({ other: h.account, predicate: 'same_owner', out: entityNo < h.account, confidence });
        }
      }
    }
    return out;
  }

  connected(entityId: string, options: { depth?: number; predicates?: readonly string[]; maxNodes?: number } = {}): { items: ConnectedEntity[]; truncated: boolean } | null {
    const root = this.reader.entityRow(entityId);
    if (!root) return null;
    const depth = options.depth ?? 2;
    if (!Number.isInteger(depth) || depth < 1 || depth > 3) throw new SampleStoreError('invalid_argument', 'depth must be 1, 2 or 3');
    const maxNodes = options.maxNodes ?? 500;
    if (!Number.isInteger(maxNodes) || maxNodes < 1) throw new SampleStoreError('invalid_argument', 'maxNodes must be a positive integer');
    const predicates = options.predicates && options.predicates.length > 0 ? new Set(options.predicates) : null;
    const seen = new Set<number>([root.entity_no]);
    const items: ConnectedEntity[] = [];
    let frontier: Array<{ no: number; id: string }> = [{ no: root.entity_no, id: entityId }];
    let truncated = false;
    for (let level = 1; level <= depth && frontier.length > 0 && !truncated; level++) {
      const next: Array<{ no: number; id: string }> = [];
      for (const node of frontier) {
        for (const link of this.links(node.no, predicates)) {
          if (seen.has(link.other)) continue;
          if (items.length >= maxNodes) {
            truncated = true;
            break;
          }
          seen.add(link.other);
          const id = this.reader.entityIdOf(link.other);
          const prefix = id.slice(0, 4) as EntityPrefix;
          const [subjectRef, objectRef] = link.out ? [node.id, id] : [id, node.id];
          items.push({
            entity_id: id, entity_kind: ENTITY_PREFIX_KIND[prefix], prefix, relation: link.predicate, direction: link.out ? 'out' : 'in',
            via: node.id, depth: level, relationship_ref: relationshipRef(subjectRef, link.predicate, objectRef), confidence: link.confidence,
          });
          next.push({ no: link.other, id });
        }
        if (truncated) break;
      }
      frontier = next;
    }
    return { items, truncated };
  }

  traverse(
    entityId: string,
    options: { depth?: number; direction?: Direction; predicates?: readonly string[]; maxNodes?: number; maxEdges?: number } = {},
  ): Traversal | null {
    const root = this.reader.entityRow(entityId);
    if (!root) return null;
    const depth = options.depth ?? 1;
    const maxNodes = options.maxNodes ?? 50;
    const maxEdges = options.maxEdges ?? 100;
    if (!Number.isInteger(depth) || depth < 1 || depth > 3) throw new SampleStoreError('invalid_argument', 'depth must be 1, 2 or 3');
    if (![maxNodes, maxEdges].every((n) => Number.isInteger(n) && n >= 1)) throw new SampleStoreError('invalid_argument', 'maxNodes and maxEdges must be positive integers');
    const predicates = options.predicates && options.predicates.length > 0 ? new Set(options.predicates) : null;
    const direction = options.direction ?? 'both';
    const depthOf = new Map<number, number>([[root.entity_no, 0]]);
    const nodes: TraversalNode[] = [{ entity_id: entityId, entity_kind: ENTITY_PREFIX_KIND[root.prefix as EntityPrefix], prefix: root.prefix as EntityPrefix, depth: 0 }];
    const edges = new Map<string, SampleRelationship>();
    let truncated = false;
    let frontier = [root.entity_no];
    for (let level = 1; level <= depth && frontier.length > 0; level++) {
      const next: number[] = [];
      for (const no of frontier) {
        for (const { other, relationship } of this.relationshipsOf(no, direction, predicates, false)) {
          if (other === null || edges.has(relationship.relationship_ref)) continue;
          if (edges.size >= maxEdges) {
            truncated = true;
            break;
          }
          if (!depthOf.has(other)) {
            if (nodes.length >= maxNodes) {
              truncated = true;
              continue;
            }
            depthOf.set(other, level);
            const prefix = this.reader.prefixOfNo(other);
            nodes.push({ entity_id: this.reader.entityIdOf(other), entity_kind: ENTITY_PREFIX_KIND[prefix], prefix, depth: level });
            next.push(other);
          }
          // The same link seen from its other end has the same ref: keep it once, as first seen.
          edges.set(relationship.relationship_ref, relationship);
        }
      }
      frontier = next;
    }
    return { root_ref: entityId, nodes, edges: [...edges.values()], truncated };
  }
}

function explain(predicate: Predicate, method: LinkMethod, basis: string | null, source: SampleSource | undefined): string {
  const from = source ? `${source.publisher}, ${source.dataset}` : 'the sample';
  switch (method) {
    case 'same_row':
      return `One ${from} record names both (${predicate.replace('_', ' ')}).`;
    case 'ssl_match':
      return `Both carry the same SSL in ${from} (${predicate.replace('_', ' ')}).`;
    case 'address_match':
      return `The permit's address equals the property's after normalisation (${basis ?? ''}); the permit names no SSL, so the link is likely, not certain.`;
    case 'owner_name_match':
      return `Both tax accounts' owners read "${basis ?? ''}" after normalisation in ${from}. Same-name owners can be different people: a lead, not a fact.`;
  }
}
