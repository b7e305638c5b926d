// Whether a sale was at market (arm's length), read from what the answer publishes: its sale type,
// its acceptance code and its price. The spec shows neither code set, so Plat recognises words
// (`market`, `arm's length`, `qualified`, `Q`; `non-market`, `unqualified`, `U`), reads a price of 0
// or none as "non-market or no price", and calls anything else (`01`, `03`, `OTHER`) unknown: shown
// as published and marked "not recognised by Plat", never "not arm's length", never screened out,
// and asked about before the sale is used. The one place this is decided; screen, PDF and CSV read it.
import { ZERO_PRICE_MEANING } from '../report/format.ts';

export type MarketStatus = 'market' | 'non_market' | 'no_price' | 'unknown';

export interface MarketReading {
  status: MarketStatus;
  /** The codes as published ("01 / MARKET"), or null when the answer gives none. */
  published: string | null;
  /** The reading in words, for the grid's sale-type cell. */
  display: string;
  /** Why the reading is unknown, in words; null when Plat recognised it. */
  notRecognised: string | null;
}

/** A code as compared: lower case, apostrophes dropped, anything else between words an underscore. */
const codeWords = (code: string): string =>
  code
    .trim()
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

const MARKET = new Set(['market', 'market_sale', 'arms_length', 'armslength', 'arm_s_length', 'qualified', 'q']);
const NON_MARKET = new Set(['non_market', 'nonmarket', 'not_market', 'non_arms_length', 'not_arms_length', 'unqualified', 'u', 'non_market_or_no_price']);

/** What one code says: market, non-market, or nothing Plat recognises (null). */
function codeReading(code: string | null): 'market' | 'non_market' | null {
  if (code === null) return null;
  const words = codeWords(code);
  return MARKET.has(words) ? 'market' : NON_MARKET.has(words) ? 'non_market' : null;
}

// The embedded service's own codes, in the words its sample's sources give them.
const KNOWN_DISPLAY: Record<string, string> = {
  market: 'Arm’s length (market)',
  non_market_or_no_price: 'Non-market or no price (OTR price 0)',
  non_market: 'Unqualified (CAMA U)',
};

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/**
 * A sale's market reading. The price decides "non-market or no price" (0 or none); otherwise the
 * codes that Plat recognises decide, and codes it does not (or that contradict each other) leave it unknown.
 * `saleType` values that only say which kind of record the sale is (`last_recorded_sale`) decide nothing.
 */
export function readSaleMarket(input: { saleType?: unknown; acceptanceCode?: unknown; price: number | null }): MarketReading {
  const acceptance = text(input.acceptanceCode);
  const saleType = text(input.saleType);
  const codes = [acceptance, saleType].filter((code): code is string => code !== null);
  const shownCodes = codes.length > 0 ? codes.join(' / ') : null;
  if (input.price === null || input.price <= 0) {
    const display = acceptance !== null && codeReading(acceptance) === 'non_market' ? (KNOWN_DISPLAY[codeWords(acceptance)] ?? `Non-market or no price (${acceptance})`) : `Non-market or no price (price ${input.price === null ? 'not given' : '0'})`;
    return { status: 'no_price', published: shownCodes, display, notRecognised: null };
  }
  const readings = new Set(codes.map(codeReading).filter((reading) => reading !== null));
  if (readings.size === 1) {
    const status = [...readings][0]!;
    const known = acceptance !== null ? KNOWN_DISPLAY[codeWords(acceptance)] : undefined;
    const words = status === 'market' ? 'Arm’s length (market)' : 'Non-market (not arm’s length)';
    return { status, published: shownCodes, display: known ?? (shownCodes === null ? words : `${words}: published as ${shownCodes}`), notRecognised: null };
  }
  const why =
    readings.size > 1
      ? `The codes published (${shownCodes}) contradict each other on whether the sale was at market.`
      : shownCodes === null
        ? 'The answer does not say whether the sale was at market.'
        : `Not recognised by Plat: the code${codes.length > 1 ? 's' : ''} ${shownCodes} ${codes.length > 1 ? 'do' : 'does'} not say in words Plat reads whether the sale was at market.`;
  return { status: 'unknown', published: shownCodes, display: shownCodes === null ? 'Not stated' : `${shownCodes} (not recognised by Plat)`, notRecognised: why };
}

/** An acceptance code alone in words (the subject report's "Market or not"): what Plat recognises, else the code marked. */
export function acceptanceCodeText(code: string): string {
  const reading = codeReading(code);
  if (reading === 'market') return 'market sale';
  if (reading === 'non_market') return ZERO_PRICE_MEANING;
  return `${code} (not recognised by Plat)`;
}
