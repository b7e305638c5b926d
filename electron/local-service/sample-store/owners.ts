// Owners by normalised name: who holds which accounts and properties, found by exact or partial
// name (every plain-Latin spelling of it). The directory is read from owner_names and owners once.
import { normaliseOwnerName, sameOwnerConfidence } from '../sample-keys.ts';
import { latinSpellings } from '../../../shared/latin-fold.ts';
import type { OwnerHolding, OwnerMatch } from './interface.ts';
import { cellOf, compareKeys, OverRows } from './rows.ts';


interface OwnerIndex {
  keys: string[];
  byKey: Map<string, number>;
  /** owner_no - 1 → holdings (account_no, property_no, row_no). */
  holdings: Array<Array<{ account: number; property: number; row: number }>>;
  byAccount: Map<number, number[]>;
}

export class OwnerDirectory extends OverRows {
  private ownerIndex: OwnerIndex | null = null;

  index(): OwnerIndex {
    if (this.ownerIndex) return this.ownerIndex;
    const keys = (this.reader.db.prepare('SELECT owner_key FROM owner_names ORDER BY owner_no').all() as Array<{ owner_key: string }>).map((r) => r.owner_key);
    const holdings: OwnerIndex['holdings'] = keys.map(() => []);
    const byAccount = new Map<number, number[]>();
    for (const r of this.reader.db.prepare('SELECT owner_no, account_no, property_no, row_no FROM owners ORDER BY owner_no, row_no').iterate() as Iterable<{
      owner_no: number; account_no: number; property_no: number; row_no: number;
    }>) {
      holdings[r.owner_no - 1]?.push({ account: r.account_no, property: r.property_no, row: r.row_no });
      let list = byAccount.get(r.account_no);
      if (!list) byAccount.set(r.account_no, (list = []));
      if (!list.includes(r.owner_no)) list.push(r.owner_no);
    }
    // A pushed-to array keeps room for about twenty entries; most owners and accounts have one or two.
    holdings.forEach((list, i) => (holdings[i] = list.slice()));
    for (const [account, list] of byAccount) byAccount.set(account, list.slice());
    this.ownerIndex = { keys, byKey: new Map(keys.map((key, i) => [key, i + 1])), holdings, byAccount };
    return this.ownerIndex;
  }

  findOwners(name: string, options: { match?: 'exact' | 'partial'; limit?: number } = {}): { owners: OwnerMatch[]; total: number } {
    // Every plain-Latin spelling of the name (MÜLLER: MULLER and MUELLER), normalised like the keys.
    const spellings = [...new Set(latinSpellings(name).map(normaliseOwnerName))].filter((spelling) => spelling !== '');
    if (spellings.length === 0) return { owners: [], total: 0 };
    const limit = options.limit ?? 50;
    const index = this.index();
    const matches: Array<{ ownerNo: number; exact: boolean }> = [];
    const exactNos = new Set(spellings.flatMap((spelling) => index.byKey.get(spelling) ?? []));
    for (const ownerNo of exactNos) matches.push({ ownerNo, exact: true });
    if (options.match === 'partial') {
      index.keys.forEach((key, i) => {
        if (!exactNos.has(i + 1) && spellings.some((spelling) => key.includes(spelling))) matches.push({ ownerNo: i + 1, exact: false });
      });
    }
    // Exact first, then names that start with the text, then the rest; alphabetical within each.
    const startsWithName = (key: string) => spellings.some((spelling) => key.startsWith(spelling));
    const rank = (m: { ownerNo: number; exact: boolean }) => (m.exact ? 0 : startsWithName(index.keys[m.ownerNo - 1] ?? '') ? 1 : 2);
    matches.sort((a, b) => rank(a) - rank(b) || compareKeys(index.keys[a.ownerNo - 1] ?? '', index.keys[b.ownerNo - 1] ?? ''));
    const owners = matches.slice(0, limit).map((m) => this.ownerMatch(m.ownerNo, m.exact));
    return { owners, total: matches.length };
  }

  private ownerMatch(ownerNo: number, exact: boolean): OwnerMatch {
    const index = this.index();
    const key = index.keys[ownerNo - 1] ?? '';
    const holdings: OwnerHolding[] = (index.holdings[ownerNo - 1] ?? []).map((h) => {
      const row = this.reader.row(h.row);
      const ownership = this.reader.recordsOfRow(h.row).find((recNo) => this.reader.sourceOfRec(recNo).source.kind === 'ownership') ?? 0;
      const land = row.q.map((no) => this.reader.entityIdOf(no)).find((id) => id.startsWith('parc_') || id.startsWith('unit_')) ?? null;
      const ref = this.reader.recordRefOf(ownership);
      return {
        property_id: this.reader.entityIdOf(h.property),
        account_id: this.reader.entityIdOf(h.account),
        land_id: land,
        ssl: typeof cellOf(row, 'ssl') === 'string' ? String(cellOf(row, 'ssl')) : null,
        address: typeof cellOf(row, 'address') === 'string' ? String(cellOf(row, 'address')) : null,
        owner_name: String(cellOf(row, 'owner') ?? ''),
        record_ref: ref,
        citation: this.reader.citation(ownership, ref),
      };
    });
    return {
      owner_key: key,
      match: exact ? 'exact' : 'partial',
      names_as_published: [...new Set(holdings.map((h) => h.owner_name))],
      holdings,
      confidence: sameOwnerConfidence(key),
    };
  }
}
