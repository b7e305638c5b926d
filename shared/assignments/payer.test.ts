import { describe, expect, it } from 'vitest';
import { lookupConcernsSubject, payerFor } from './payer.ts';

const subject = { subjectRef: 'prop_080b9725', subjectLabel: '1708 21ST ST NW · SSL 0065 0007' };
const base = { activeProjectId: 'p1708', subject, remembered: null, priced: true } as const;

describe('whether a lookup concerns the assignment’s subject', () => {
  it('matches the subject’s address, SSL or id however it is typed', () => {
    expect(lookupConcernsSubject('1708 21st Street NW', subject)).toBe(true);
    expect(lookupConcernsSubject('0065 0007', subject)).toBe(true);
    expect(lookupConcernsSubject('prop_080b9725', subject)).toBe(true);
  });
  it('does not match another property', () => {
    expect(lookupConcernsSubject('1717 4th St NW', subject)).toBe(false);
    expect(lookupConcernsSubject('1708 21st St', subject)).toBe(false);
  });
});

describe('which file pays for a lookup', () => {
  it('asks (null) for a priced lookup of another property, with nothing remembered', () => {
    expect(payerFor({ ...base, lookup: '1717 4th St NW' })).toBeNull();
  });
  it('books the subject’s own lookup, a free one, or one under a plain project to the active file without asking', () => {
    expect(payerFor({ ...base, lookup: '1708 21st st nw' })).toEqual({ kind: 'project', projectId: 'p1708' });
    expect(payerFor({ ...base, lookup: '1717 4th St NW', priced: false })).toEqual({ kind: 'project', projectId: 'p1708' });
    expect(payerFor({ ...base, lookup: '1717 4th St NW', subject: null })).toEqual({ kind: 'project', projectId: 'p1708' });
    expect(payerFor({ ...base, lookup: '1717 4th St NW', activeProjectId: null, subject: null })).toEqual({ kind: 'none' });
  });
  it('applies the choice remembered for the session', () => {
    expect(payerFor({ ...base, lookup: '1717 4th St NW', remembered: 'assignment' })).toEqual({ kind: 'project', projectId: 'p1708' });
    expect(payerFor({ ...base, lookup: '1717 4th St NW', remembered: 'none' })).toEqual({ kind: 'none' });
    expect(payerFor({ ...base, lookup: '1717 4th St NW', remembered: 'new' })).toEqual({ kind: 'new' });
  });
});
