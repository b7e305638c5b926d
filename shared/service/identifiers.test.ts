import { describe, expect, it } from 'vitest';
import { canonicalAddress, canonicalIdentifier, canonicalNumber, canonicalSsl, identifierProblem, withoutLocality } from './identifiers.ts';
import { V2IdentifierSchema, V2ResolutionsRequestSchema, V2SearchFilterSchema } from './v2.ts';

describe('canonical forms of what a person types', () => {
  it.each([
    ['1708 21st st nw', '1708 21ST ST NW'],
    ['1708 21ST ST NW', '1708 21ST ST NW'],
    ['  1708   21st  St.  NW ', '1708 21ST ST NW'],
    ['1708 21st Street NW, Washington DC', '1708 21ST ST NW'],
    ['1708 21st St NW, Washington, D.C. 20009', '1708 21ST ST NW'],
    ['1708 21st St NW DC 20009-1234', '1708 21ST ST NW'],
    ['1708 21st St NW, Washington', '1708 21ST ST NW'],
    ['304 Adams Av, Alexandria VA 22301', '304 ADAMS AVE'],
    ['555 Massachusetts Ave NW Unit: 00101', '555 MASSACHUSETTS AVE NW UNIT 101'],
    // A unit after the quadrant stays a unit, even when it has five digits.
    ['1821 T ST NW 00101', '1821 T ST NW UNIT 101'],
    ['2101/2 ADAMS AV', '210 1/2 ADAMS AVE'],
    ['Café Row', 'CAFE ROW'],
  ])('address %j → %j', (typed, canonical) => {
    expect(canonicalAddress(typed)).toBe(canonical);
    expect(canonicalAddress(canonical)).toBe(canonical);
  });

  it('leaves a street named like a city alone', () => {
    expect(withoutLocality('100 Mount Washington')).toBe('100 MOUNT WASHINGTON');
    expect(withoutLocality('DC')).toBe('DC');
  });

  it.each([['0065 0007'], ['0065    0007'], ['0065-0007'], ['0065/0007'], ['65-7'], ['bd0000650007'], [' 0065   0007 ']])('SSL %j → "0065    0007"', (typed) => {
    expect(canonicalSsl(typed)).toBe('0065    0007');
  });

  it('account numbers and MAR ids lose spaces, dashes and leading zeros; entity ids are lower case', () => {
    expect(canonicalNumber('013 244-500')).toBe('13244500');
    expect(canonicalNumber('13244500')).toBe('13244500');
    expect(canonicalIdentifier('entity_ref', ' PROP_080B9725-3C84-5BA1-AB8D-A3891860E65B ')).toBe('prop_080b9725-3c84-5ba1-ab8d-a3891860e65b');
  });

  it('names what cannot be a record: non-Latin letters, punctuation only, a placeholder SSL', () => {
    expect(identifierProblem('address', '名前')).toMatch(/no Latin spelling \(名 前\)/);
    expect(identifierProblem('address', '--- ...')).toMatch(/letters or digits/);
    expect(identifierProblem('ssl', '0000 0000')).toMatch(/placeholder/);
    expect(identifierProblem('ssl', '0065 0000')).toMatch(/placeholder/);
    expect(identifierProblem('address', 'Müller Str 5')).toBeNull();
    expect(identifierProblem('ssl', '0065 0007')).toBeNull();
  });
});

describe('the request schemas send one form', () => {
  it('an identifier parses to its canonical value, and a refused one says why', () => {
    expect(V2IdentifierSchema.parse({ scheme: 'address', value: '1708 21st st nw' })).toEqual({ scheme: 'address', value: '1708 21ST ST NW' });
    const refused = V2IdentifierSchema.safeParse({ scheme: 'ssl', value: '0000 0000' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['value']);
  });

  it('a resolutions body written two ways parses to one value; an invalid item is kept as sent for the service to answer', () => {
    const body = (value: string) => ({ items: [{ client_id: 'a', subject_kind: 'address', identifiers: [{ scheme: 'address', value }] }] });
    expect(V2ResolutionsRequestSchema.parse(body('1708 21st st nw'))).toEqual(V2ResolutionsRequestSchema.parse(body('1708 21ST ST NW')));
    const invalid = { client_id: 'b', subject_kind: 'address', identifiers: [{ scheme: 'address', value: '名前' }] };
    expect(V2ResolutionsRequestSchema.parse({ items: [invalid] }).items[0]).toEqual(invalid);
  });

  it('owner and address filter text is sent upper case and single-spaced; others as typed; at most 512 characters', () => {
    expect(V2SearchFilterSchema.parse({ field: 'owner_name', op: 'contains', value: ' joel   kuipers ' })).toMatchObject({ value: 'JOEL KUIPERS' });
    expect(V2SearchFilterSchema.parse({ field: 'homestead', op: 'eq', value: 'true' })).toMatchObject({ value: 'true' });
    expect(V2SearchFilterSchema.safeParse({ field: 'owner_name', op: 'contains', value: 'A'.repeat(513) }).success).toBe(false);
  });
});
