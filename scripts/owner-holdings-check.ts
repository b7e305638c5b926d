// For every owner name in the sample's OTR roll: the distinct parcels and the assessed total counted
// straight from the roll's rows, against what the holdings module (shared/graph/holdings.ts, read
// through the owner page's portfolio) says for that owner's rows in the embedded service's answers.
// The roll lists 1,049 SSLs on two rows, usually with the assessment on one only: with holdings
// counted as rows, 1,037 owner names differed. Prints the differences; the goal is 0.
//   node scripts/owner-holdings-check.ts
import { existsSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { openSampleStore } from '../electron/local-service/sample-store.ts';
import { defaultSampleDbPath } from '../electron/local-service/sample-store.ts';
import { startTestService, stopTestService } from '../electron/local-service/test-harness.ts';
import { v2Operations } from '../electron/local-service/operations/v2.ts';
import { CitationBook } from '../shared/cited/citation-book.ts';
import { ownerPortfolio } from '../shared/graph/portfolio.ts';
import { ownerNameKey } from '../shared/graph/relations.ts';

export interface OwnerFigures {
  parcels: number;
  assessed: number;
}

export interface OwnerDifference {
  /** The normalised owner name. */
  owner: string;
  roll: OwnerFigures;
  holdings: OwnerFigures | null;
}

export interface CheckResult {
  owners: number;
  rows: number;
  differences: OwnerDifference[];
}

/** The roll's columns the check reads (dc_otr_real_property, as the sample build writes it). */
const SSL = 0;
const OWNER = 6;
const ASSESSMENT = 12;

/**
 * Each owner name's parcels and assessed total, straight from the roll: an SSL once, its assessment
 * from whichever of the owner's rows carries one.
 */
export function rollFigures(dbPath: string): { figures: Map<string, OwnerFigures>; rows: number } {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const range = db.prepare("SELECT first_row_no AS first, last_row_no AS last FROM datasets WHERE dataset = 'dc_otr_real_property'").get() as { first: number; last: number };
    const parcels = new Map<string, Map<string, number | null>>();
    let rows = 0;
    for (const { data } of db.prepare('SELECT data FROM source_rows WHERE row_no BETWEEN ? AND ?').iterate(range.first, range.last) as Iterable<{ data: string }>) {
      const row = JSON.parse(data) as unknown[];
      rows++;
      const owner = typeof row[OWNER] === 'string' ? ownerNameKey(row[OWNER]) : '';
      if (owner === '' || typeof row[SSL] !== 'string') continue;
      const ssl = row[SSL].trim().replace(/\s+/g, ' ');
      const assessed = typeof row[ASSESSMENT] === 'number' ? row[ASSESSMENT] : null;
      const owned = parcels.get(owner) ?? new Map<string, number | null>();
      owned.set(ssl, owned.get(ssl) ?? assessed);
      parcels.set(owner, owned);
    }
    const figures = new Map<string, OwnerFigures>();
    for (const [owner, owned] of parcels) figures.set(owner, { parcels: owned.size, assessed: [...owned.values()].reduce<number>((sum, value) => sum + (value ?? 0), 0) });
    return { figures, rows };
  } finally {
    db.close();
  }
}

/** Every page of the embedded service's v2 search of DC's properties, as the owner search reads them. */
async function everyPage(): Promise<unknown[]> {
  const store = openSampleStore();
  const svc = await startTestService({ operations: v2Operations, store, rateLimitPerMinute: 1_000_000 });
  try {
    const pages: unknown[] = [];
    let cursor: string | undefined;
    do {
      const body = { area_uid: 'area_us_dc', entity_kinds: ['property', 'parcel', 'unit'], projection: 'fact_summary', limit: 100, ...(cursor === undefined ? {} : { cursor }) };
      const answer = await svc.call('/api/v2/property-searches', { json: body });
      if (answer.status !== 200) throw new Error(`The property search answered ${answer.status}: ${answer.text.slice(0, 200)}`);
      pages.push(answer.body);
      const meta = (answer.body as { meta?: { next_cursor?: unknown } }).meta;
      cursor = typeof meta?.next_cursor === 'string' && meta.next_cursor !== '' ? meta.next_cursor : undefined;
    } while (cursor !== undefined);
    return pages;
  } finally {
    await stopTestService(svc);
    store.close();
  }
}

/** Each owner name's holdings and total as the portfolio (and so the owner page, the report and the PDF) gives them. */
export function holdingsFigures(pages: readonly unknown[]): Map<string, OwnerFigures> {
  const portfolio = ownerPortfolio('', pages, new CitationBook().cite);
  if (portfolio.problems.length > 0) throw new Error(portfolio.problems.join(' '));
  const figures = new Map<string, OwnerFigures>();
  for (const owner of portfolio.owners) {
    if (owner.key === '') continue;
    figures.set(owner.key, { parcels: owner.holdings.length, assessed: typeof owner.totalAssessed.raw === 'number' ? owner.totalAssessed.raw : 0 });
  }
  return figures;
}

export async function checkOwnerHoldings(dbPath = defaultSampleDbPath()): Promise<CheckResult> {
  const roll = rollFigures(dbPath);
  const holdings = holdingsFigures(await everyPage());
  const differences: OwnerDifference[] = [];
  for (const [owner, figures] of roll.figures) {
    const held = holdings.get(owner) ?? null;
    if (held === null || held.parcels !== figures.parcels || held.assessed !== figures.assessed) differences.push({ owner, roll: figures, holdings: held });
  }
  for (const [owner, held] of holdings) if (!roll.figures.has(owner)) differences.push({ owner, roll: { parcels: 0, assessed: 0 }, holdings: held });
  return { owners: roll.figures.size, rows: roll.rows, differences };
}

async function main(): Promise<number> {
  const dbPath = defaultSampleDbPath();
  if (!existsSync(dbPath)) {
    console.error(`No sample database at ${dbPath} (npm run sample-data builds it).`);
    return 2;
  }
  const result = await checkOwnerHoldings(dbPath);
  const money = (n: number) => `$${n.toLocaleString('en-US')}`;
  for (const difference of result.differences.slice(0, 20)) {
    const held = difference.holdings ? `${difference.holdings.parcels} holdings, ${money(difference.holdings.assessed)}` : 'no holdings';
    console.log(`${difference.owner}: roll ${difference.roll.parcels} parcels, ${money(difference.roll.assessed)}; holdings ${held}`);
  }
  console.log(`${result.owners.toLocaleString('en-US')} owner names over ${result.rows.toLocaleString('en-US')} rows: ${result.differences.length} differences.`);
  return result.differences.length === 0 ? 0 : 1;
}

if (import.meta.main) process.exit(await main());
