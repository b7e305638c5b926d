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
