import { describe, expect, it } from 'vitest';
import { assignmentsOf, canBeSubject, checkDetailsEdit, checkNewAssignment, newAssignmentDraft, operationLabel } from './assignment-model.ts';
import { localToday } from '../../../shared/format-date.ts';

const UUID = '0b9e2f1c-5d1e-4c1a-9a51-2f9a3c1b7e10';
const subject = { subjectRef: `prop_${UUID}`, subjectLabel: '1708 21ST ST NW' };

describe('starting an assignment', () => {
  it('is offered on properties, parcels, units and tax accounts', () => {
    expect(['prop', 'parc', 'unit', 'acct'].every((prefix) => canBeSubject(`${prefix}_${UUID}`))).toBe(true);
    expect(canBeSubject(`addr_${UUID}`)).toBe(false);
    expect(canBeSubject('prop_not-an-id')).toBe(false);
  });

  it('defaults to the subject’s name and today (local), and becomes the active assignment', () => {
    expect(localToday(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    const draft = newAssignmentDraft('1708 21ST ST NW', '2026-05-01');
    const checked = checkNewAssignment(draft, subject);
    expect(checked).toEqual({
      ok: true,
      value: {
        name: '1708 21ST ST NW',
        capMicroUsd: null,
        details: { ...subject, effectiveDate: '2026-05-01', intendedUse: '', client: '', reference: '', notes: '' },
        activate: true,
      },
    });
  });

  it('refuses a date that does not exist, an empty name, over-long fields and a bad cap, each in its own words', () => {
    const draft = { ...newAssignmentDraft('', '2026-02-30'), client: 'c'.repeat(301), cap: 'five' };
    const checked = checkNewAssignment(draft, subject);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors.name).toContain('Name the assignment');
    expect(checked.errors.effectiveDate).toBe('“2026-02-30” is not a date that exists: write it as YYYY-MM-DD.');
    expect(checked.errors.client).toBe('Client: at most 300 characters (it has 301).');
    expect(checked.errors.cap).toContain('Cap: enter a dollar amount');
    expect(checkNewAssignment({ ...newAssignmentDraft('x', '01/05/2026') }, subject)).toMatchObject({ ok: false, errors: { effectiveDate: expect.any(String) } });
    expect(checkNewAssignment({ ...newAssignmentDraft('x', '2026-05-01'), cap: '12.50' }, subject)).toMatchObject({ ok: true, value: { capMicroUsd: 12_500_000 } });
  });

  it('keeps a 5,000-character or non-Latin name out of the request with a message, not a truncation', () => {
    const long = checkNewAssignment(newAssignmentDraft('x'.repeat(5_000), '2026-05-01'), subject);
    expect(long).toMatchObject({ ok: true, value: { name: 'x'.repeat(120) } });
    const typed = checkNewAssignment({ ...newAssignmentDraft('', '2026-05-01'), name: 'x'.repeat(5_000) }, subject);
    expect(typed).toMatchObject({ ok: false, errors: { name: 'Name: at most 120 characters (it has 5,000).' } });
    expect(checkNewAssignment({ ...newAssignmentDraft('東京 物件', '2026-05-01') }, subject)).toMatchObject({ ok: true, value: { name: '東京 物件' } });
  });
});

describe('changing an assignment’s details', () => {
  const current = { ...subject, effectiveDate: '2026-05-01', intendedUse: 'Lending', client: 'Bank', reference: 'R1', notes: '' };
  it('sends only what changed', () => {
    const draft = { name: 'A', effectiveDate: '2026-04-30', intendedUse: 'Lending', client: 'Bank', reference: 'R2', notes: '', cap: '' };
    expect(checkDetailsEdit(draft, current)).toEqual({ ok: true, value: { name: 'A', details: { effectiveDate: '2026-04-30', reference: 'R2' } } });
  });
});

describe('the list', () => {
  it('holds assignments only, open ones first, newest first', () => {
    const make = (id: string, createdAt: string, archived: boolean, assignment = true) => ({
      id,
      name: id,
      capMicroUsd: null,
      archived,
      createdAt,
      assignment: assignment ? { ...subject, effectiveDate: '2026-05-01', intendedUse: '', client: '', reference: '', notes: '' } : null,
    });
    const list = assignmentsOf([make('old', '2026-01-01', false), make('plain', '2026-03-01', false, false), make('gone', '2026-04-01', true), make('new', '2026-02-01', false)]);
    expect(list.map((project) => project.id)).toEqual(['new', 'old', 'gone']);
  });
  it('names operations for people', () => {
    expect(operationLabel('v3.recordQuery')).toBe('Record query (v3)');
    expect(operationLabel('v4.summary')).toBe('Summary (v4)');
  });
});
