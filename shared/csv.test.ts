import { describe, expect, it } from 'vitest';
import { csvField } from './csv.ts';

describe('csvField', () => {
  it('quotes what RFC 4180 needs quoted and leaves the rest as it is', () => {
    expect(csvField('1708 21ST ST NW')).toBe('1708 21ST ST NW');
    expect(csvField('KUIPERS, JOEL')).toBe('"KUIPERS, JOEL"');
    expect(csvField('the "Old City"')).toBe('"the ""Old City"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(-77.047037)).toBe('-77.047037');
    expect(csvField(true)).toBe('true');
  });

  it('keeps a text cell that starts like a formula as text', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-77.047037')).toBe("'-77.047037");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
  });
});

describe('csvField against formulas a spreadsheet would still run', () => {
  it('quotes a cell holding another separator (;, tab) and neutralises a formula after it', () => {
    expect(csvField("SMITH;=cmd|' /C calc'!A0")).toBe(`"SMITH;'=cmd|' /C calc'!A0"`);
    expect(csvField('SMITH\t+1+1')).toBe(`"SMITH\t'+1+1"`);
    expect(csvField('SMITH; JONES')).toBe('"SMITH; JONES"');
    expect(csvField('A;B')).toBe('"A;B"');
    expect(csvField('note\r\n=1')).toBe(`"note\r\n'=1"`);
  });

  it('neutralises a formula behind leading white space of any kind', () => {
    expect(csvField('  =1+1')).toBe("'  =1+1");
    expect(csvField('\u00A0=1+1')).toBe("'\u00A0=1+1");
    expect(csvField('\u2003@SUM(A1)')).toBe("'\u2003@SUM(A1)");
    expect(csvField('\u3000-2+3')).toBe("'\u3000-2+3");
    expect(csvField('\t=1')).toBe(`"'\t'=1"`);
  });

  it('neutralises full-width formula characters', () => {
    expect(csvField('\uFF1D1+1')).toBe("'\uFF1D1+1");
    expect(csvField('\uFF0B1')).toBe("'\uFF0B1");
    expect(csvField('\uFF0D1')).toBe("'\uFF0D1");
    expect(csvField('\uFF20SUM(A1)')).toBe("'\uFF20SUM(A1)");
    expect(csvField(' \uFF1D1')).toBe("' \uFF1D1");
  });

  it('leaves text that only looks near a formula alone', () => {
    expect(csvField('1708 21ST ST NW')).toBe('1708 21ST ST NW');
    expect(csvField('  SMITH')).toBe('  SMITH');
    expect(csvField('a=b')).toBe('a=b');
  });
});
