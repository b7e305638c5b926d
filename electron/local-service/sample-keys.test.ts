import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  SAMPLE_ID_NAMESPACE,
  distanceMeters,
  equalityKey,
  foldForSearch,
  isCondoUnitSsl,
  isOrganisationName,
  normaliseAddress,
  normaliseOwnerName,
  parseSsl,
  relationshipRef,
  rowPoint,
  sameOwnerConfidence,
  uuidV5,
} from './sample-keys.ts';

describe('parseSsl', () => {
  it('keeps the canonical 12-character form', () => {
    expect(parseSsl('0150    0295')).toMatchObject({ canonical: '0150    0295', form: 'square', square: '0150', suffix: '', lot: '0295' });
    expect(parseSsl('0242N   2035')?.canonical).toBe('0242N   2035');
  });

  it('reads the OTR scraper BD form as the same SSL', () => {
    expect(parseSsl('BD0004510022')?.canonical).toBe('0451    0022');
    expect(parseSsl('BD00515N2001')?.canonical).toBe('0515N   2001');
  });

  it('accepts what people type: single spaces, a dash, no zero padding, lower case', () => {
    expect(parseSsl('0150 0295')?.canonical).toBe('0150    0295');
    expect(parseSsl('150-295')?.canonical).toBe('0150    0295');
    expect(parseSsl(' 0242n 2035 ')?.canonical).toBe('0242N   2035');
  });

  it('keeps PAR, RES and PI keys and rejects garbage', () => {
    expect(parseSsl('PAR 02600014')).toMatchObject({ canonical: 'PAR 02600014', form: 'par' });
    expect(parseSsl('RES 00640000')).toMatchObject({ canonical: 'RES 00640000', form: 'res' });
    expect(parseSsl('PI0002040015')).toMatchObject({ canonical: 'PI0002040015', form: 'pi' });
    expect(parseSsl('36478    1029')).toBeNull();
    expect(parseSsl('E475    0022')).toBeNull();
    expect(parseSsl('')).toBeNull();
  });

  it('treats lots from 2000 up as condominium units', () => {
    expect(isCondoUnitSsl(parseSsl('0484    2001')!)).toBe(true);
    expect(isCondoUnitSsl(parseSsl('0065    0829')!)).toBe(false);
    expect(isCondoUnitSsl(parseSsl('PI0002040015')!)).toBe(false);
  });
});

describe('normaliseAddress', () => {
  const full = (raw: string) => normaliseAddress(raw)?.full;

  it('splits OTR condominium units and drops leading zeros', () => {
    expect(normaliseAddress('0555 MASSACHUSETTS AVE NW Unit : 01306')).toEqual({
      premise: '555 MASSACHUSETTS AVE NW', unit: '1306', full: '555 MASSACHUSETTS AVE NW UNIT 1306', hasHouseNumber: true,
    });
    expect(full('555 MASSACHUSETTS AV NW Unit: 906')).toBe('555 MASSACHUSETTS AVE NW UNIT 906');
    expect(full('0655 K ST NW Unit : 0000A')).toBe('655 K ST NW UNIT A');
  });

  it('reads anything after a DC quadrant as a unit (parking spaces)', () => {
    expect(normaliseAddress('460 L ST NW G2-271')).toMatchObject({ premise: '460 L ST NW', unit: 'G2-271' });
  });

  it('makes the spellings of one place agree across OTR, DCRA and Alexandria', () => {
    expect(full('1212 4 ST SE')).toBe(full('1212 4TH ST SE'));
    expect(full('1716 21st Street NW')).toBe('1716 21ST ST NW');
    expect(full('1800 MT VERNON AVE')).toBe('1800 MOUNT VERNON AVE');
    expect(full('1408 VAN VALKENBURGH LA')).toBe('1408 VAN VALKENBURGH LN');
    expect(full('2101/2 ADAMS AV')).toBe(full('210 1/2 ADAMS AV'));
    expect(full('1309 A HANCOCK AV')).toBe('1309A HANCOCK AVE');
    expect(full('510 A E BELLEFONTE AV')).toBe('510A E BELLEFONTE AVE');
    expect(full('1 AUBURN CT UNIT:A')).toBe('1 AUBURN CT UNIT A');
    expect(full('900 - 904 FLORIDA AVE NW')).toBe('900-904 FLORIDA AVE NW');
  });

  it('does not mistake letter streets or directions for house-number suffixes', () => {
    expect(full('40 N ST NW')).toBe('40 N ST NW');
    expect(full('201 E LURAY AV')).toBe('201 E LURAY AVE');
    expect(full('1 E MT VERNON AV')).toBe('1 E MOUNT VERNON AVE');
    expect(full('1906 T ST1/2 NW 000C5')).toBe('1906 T ST1/2 NW UNIT C5');
    expect(full('1212 UNITY PL')).toBe('1212 UNITY PL');
  });

  it('treats N/A as no unit and flags street segments without a number', () => {
    expect(normaliseAddress('4700 SOUTH CAPITOL ST SE UNIT N/A')?.unit).toBeNull();
    expect(normaliseAddress('RHODE ISLAND AV NW')).toMatchObject({ premise: 'RHODE ISLAND AVE NW', hasHouseNumber: false });
    expect(normaliseAddress('   ')).toBeNull();
  });

  it('normalises the cases the property below once found twice to the same text', () => {
    for (const text of ['12 # UNIT UNIT', '12 # : UNIT', '12 # : UNIT 12', '12 A Q 12 12']) {
      const once = normaliseAddress(text);
      expect(normaliseAddress(once?.full ?? '')?.full, text).toBe(once?.full);
    }
  });

  it('is idempotent on address-like text', () => {
    const token = fc.constantFrom('12', '0555', '2101/2', 'A', 'N', 'E', 'MT', 'VERNON', 'ST', 'AV', 'AVENUE', 'NW', 'SE', 'UNIT', '#', '4', 'Q', ':', '00101', 'G2-271');
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 8 }), (tokens) => {
        const once = normaliseAddress(tokens.join(' '));
        if (once === null) return;
        expect(normaliseAddress(once.full)?.full).toBe(once.full);
      }),
      // Many runs: short random addresses found two real non-idempotent cases before.
      { numRuns: 5000 },
    );
  });
});

describe('normaliseOwnerName', () => {
  it('makes case, spacing, punctuation and LLC spellings one name', () => {
    const forms = ['ACME, L.L.C.', 'Acme LLC', 'acme  l l c', 'ACME LIMITED LIABILITY COMPANY'];
    expect(new Set(forms.map(normaliseOwnerName))).toEqual(new Set(['ACME LLC']));
    expect(normaliseOwnerName('William O. Bank & Hilda O. Bank')).toBe('WILLIAM O BANK AND HILDA O BANK');
    expect(normaliseOwnerName("O'Brien, Ann")).toBe('OBRIEN ANN');
  });

  it('keeps different people apart', () => {
    expect(normaliseOwnerName('JOHN SMITH')).not.toBe(normaliseOwnerName('JOHN A SMITH'));
    // "L P" inside a name is a person's initials; only a trailing one is a partnership.
    expect(normaliseOwnerName('JOHN L P SMITH')).toBe('JOHN L P SMITH');
    expect(normaliseOwnerName('FENTON FAMILY L.P.')).toBe('FENTON FAMILY LP');
  });

  it('trusts an organisation name more than a personal name', () => {
    expect(isOrganisationName('ACME LLC')).toBe(true);
    expect(isOrganisationName('JOEL KUIPERS')).toBe(false);
    expect(sameOwnerConfidence('ACME LLC')).toBeGreaterThan(sameOwnerConfidence('JOEL KUIPERS'));
    expect(sameOwnerConfidence('ACME LLC')).toBeLessThan(1);
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        expect(normaliseOwnerName(normaliseOwnerName(name))).toBe(normaliseOwnerName(name));
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (name) => {
        expect(normaliseOwnerName(normaliseOwnerName(name))).toBe(normaliseOwnerName(name));
      }),
    );
    // Found by the property above: Ǽ is Æ with an acute, and must fold as Æ does.
    for (const name of ['Ǽ', 'ǽ', 'Ǿ']) expect(normaliseOwnerName(normaliseOwnerName(name))).toBe(normaliseOwnerName(name));
    expect(normaliseOwnerName('Ǽ')).toBe('AE');
  });

  it('folds accents instead of splitting words at them, and keeps letters with no Latin spelling', () => {
    expect(normaliseOwnerName('Müller, José')).toBe('MULLER JOSE');
    expect(normaliseOwnerName('Straße GmbH')).toBe('STRASSE GMBH');
    expect(normaliseOwnerName('名前')).toBe('名前');
    expect(foldForSearch('Café Ünter')).toBe('CAFE UNTER');
  });
});

describe('ids', () => {
  it('computes RFC 9562 version 5 UUIDs', () => {
    // The RFC's example: the DNS namespace and "www.example.com".
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
    expect(SAMPLE_ID_NAMESPACE).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('derives relationship refs from subject, predicate and object only', () => {
    const a = relationshipRef('prop_1', 'located_in', 'parc_2');
    expect(a).toBe(relationshipRef('prop_1', 'located_in', 'parc_2'));
    expect(a).not.toBe(relationshipRef('prop_1', 'served_by', 'parc_2'));
    expect(a).toMatch(/^rel_[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('equalityKey', () => {
  it('compares publisher values loosely but exactly', () => {
    expect(equalityKey('17')).toBe(equalityKey(17));
    expect(equalityKey('017')).toBe(equalityKey(17));
    expect(equalityKey(' joel  kuipers ')).toBe(equalityKey('JOEL KUIPERS'));
    expect(equalityKey('0150    0295')).toBe(equalityKey('0150 0295'));
    expect(equalityKey('')).toBeNull();
    expect(equalityKey(null)).toBeNull();
    expect(equalityKey('JOEL KUIPERS')).not.toBe(equalityKey('JOEL KUIPER'));
  });
});

describe('rowPoint and distance', () => {
  it('reads each dataset’s own point columns and treats 0,0 as no point', () => {
    expect(rowPoint('dc_otr_real_property', { square_lat: 38.9, square_lon: -77 })).toEqual({ lat: 38.9, lon: -77 });
    expect(rowPoint('dc_dcra_new_building_permits', { LATITUDE: 0, LONGITUDE: 0 })).toBeNull();
    expect(rowPoint('dc_otr_real_property', { square_lat: null, square_lon: null })).toBeNull();
  });

  it('measures great-circle distance', () => {
    // One degree of latitude is about 111.2 km.
    expect(distanceMeters(38, -77, 39, -77)).toBeGreaterThan(111_000);
    expect(distanceMeters(38, -77, 39, -77)).toBeLessThan(111_400);
    expect(distanceMeters(38.9, -77.04, 38.9, -77.04)).toBe(0);
  });
});
