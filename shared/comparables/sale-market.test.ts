import { describe, expect, it } from 'vitest';
import { acceptanceCodeText, readSaleMarket } from './sale-market.ts';

describe('readSaleMarket', () => {
  it('reads the embedded service’s codes as before', () => {
    expect(readSaleMarket({ saleType: 'last_recorded_sale', acceptanceCode: 'market', price: 1_361_000 })).toMatchObject({ status: 'market', display: 'Arm’s length (market)' });
    expect(readSaleMarket({ saleType: 'last_recorded_sale', acceptanceCode: 'non_market_or_no_price', price: 0 })).toMatchObject({ status: 'no_price', display: 'Non-market or no price (OTR price 0)' });
    expect(readSaleMarket({ saleType: 'cama_extract_sale', acceptanceCode: 'non_market', price: 1_150_000 })).toMatchObject({ status: 'non_market', display: 'Unqualified (CAMA U)' });
  });

  it('recognises market and non-market by their words, in either field and any case', () => {
    for (const code of ['MARKET', "arm's length", 'Arms_Length', 'qualified', 'Q']) expect(readSaleMarket({ acceptanceCode: code, price: 500_000 }).status).toBe('market');
    for (const code of ['non-market', 'NON_MARKET', 'unqualified', 'U']) expect(readSaleMarket({ saleType: code, price: 500_000 }).status).toBe('non_market');
  });

  it('screens a MARKET / 01 sale as market', () => {
    expect(readSaleMarket({ saleType: 'MARKET', acceptanceCode: '01', price: 1_361_000 })).toMatchObject({ status: 'market', display: 'Arm’s length (market): published as 01 / MARKET', notRecognised: null });
  });

  it('leaves 03 / OTHER with a price unknown: shown as published, not recognised, never non-market', () => {
    const reading = readSaleMarket({ saleType: 'OTHER', acceptanceCode: '03', price: 18_402.5 });
    expect(reading).toMatchObject({ status: 'unknown', published: '03 / OTHER', display: '03 / OTHER (not recognised by Plat)' });
    expect(reading.notRecognised).toMatch(/^Not recognised by Plat/);
    expect(readSaleMarket({ acceptanceCode: '01', price: 500_000 }).status).toBe('unknown');
    expect(readSaleMarket({ saleType: 'MARKET', acceptanceCode: 'U', price: 500_000 })).toMatchObject({ status: 'unknown', notRecognised: expect.stringMatching(/contradict/) });
  });

  it('reads a price of 0 or none as non-market or no price, whatever the codes', () => {
    expect(readSaleMarket({ saleType: 'OTHER', acceptanceCode: '03', price: 0 })).toMatchObject({ status: 'no_price', display: 'Non-market or no price (price 0)' });
    expect(readSaleMarket({ acceptanceCode: 'market', price: null })).toMatchObject({ status: 'no_price', display: 'Non-market or no price (price not given)' });
  });

  it('says an acceptance code alone in words, or marks it', () => {
    expect(['market', 'non_market', '01'].map(acceptanceCodeText)).toEqual(['market sale', 'non-market or no price', '01 (not recognised by Plat)']);
  });
});
