import { describe, expect, it } from 'vitest';
import { receivedFrom, receivedNote, receivedText, saysReceived } from './received.ts';

describe('where an imported answer came from', () => {
  const from = receivedFrom({ fileName: 'a.plat-workfile.json', exportedBy: 'Plat 0.1.0', exportedAt: '2026-11-27T10:00:00.000Z', assignmentName: '1708 21st St NW' });

  it('is one sentence: the file, the Plat that wrote it, the day, the assignment', () => {
    expect(receivedText(from)).toBe('Received in workfile “a.plat-workfile.json”, exported by Plat 0.1.0 on 2026-11-27 for “1708 21st St NW”');
    expect(receivedText({ ...from, fileName: '' })).toMatch(/^Received in an unnamed workfile, /);
    expect(saysReceived(`[1] DC OTR; ${receivedNote(from)}`)).toBe(true);
    expect(saysReceived('[1] DC OTR; as of 2017-02-05')).toBe(false);
    // In a report that also reads answers bought here, the note names the file's answers.
    const mixed = receivedNote(from, ['Summary of 1708 21ST ST NW']);
    expect(mixed).toBe('Values read from Summary of 1708 21ST ST NW: received in workfile “a.plat-workfile.json”, exported by Plat 0.1.0 on 2026-11-27 for “1708 21st St NW”, not bought by this Plat, not re-checked against the service.');
    expect(saysReceived(mixed)).toBe(true);
  });

  it('keeps the file\'s words as plain, bounded text: no control or direction-override characters', () => {
    const hostile = receivedFrom({ fileName: 'x\u202Egpj.json', exportedBy: 'Plat\n\rDC OTR', exportedAt: '2026-11-27', assignmentName: 'n'.repeat(1_000) });
    expect(hostile.fileName).toBe('x gpj.json');
    expect(hostile.exportedBy).toBe('Plat DC OTR');
    expect(hostile.assignmentName).toHaveLength(300);
  });
});
