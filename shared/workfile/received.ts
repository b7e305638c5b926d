// Where an imported answer came from: a workfile someone exported, not a purchase this Plat made. The
// file's own words (its name, the Plat that wrote it, when, for which assignment) are all Plat knows
// of it, so every place that shows or prints such an answer says so in this one sentence.
import { z } from 'zod';
import { formatDay } from '../format-date.ts';

export const ReceivedFromSchema = z.object({
  /** The workfile's name as the person chose it ("" when it came without one). */
  fileName: z.string().max(300),
  /** As the file says: "Plat 0.4.0". */
  exportedBy: z.string().max(200),
  /** ISO, as the file says. */
  exportedAt: z.string().max(64),
  /** The assignment it was exported for, as the file names it. */
  assignmentName: z.string().max(300),
});
export type ReceivedFrom = z.infer<typeof ReceivedFromSchema>;

// The file's words are anyone's: shown and printed as plain text of bounded length, without control
// or bidirectional-override characters that would make them read as something else.
const UNSAFE = /[\p{Cc}\u202A-\u202E\u2066-\u2069]+/gu;
const clean = (text: string, max: number): string => [...text.replace(UNSAFE, ' ').trim()].slice(0, max).join('');

/** What a workfile says of itself, with the name the person chose for it, cleaned and bounded as ReceivedFromSchema allows. */
export function receivedFrom(file: { fileName: string; exportedBy: string; exportedAt: string; assignmentName: string }): ReceivedFrom {
  return {
    fileName: clean(file.fileName, 300),
    exportedBy: clean(file.exportedBy, 200),
    exportedAt: clean(file.exportedAt, 64),
    assignmentName: clean(file.assignmentName, 300),
  };
}

/** "Received in workfile “a.plat-workfile.json”, exported by Plat 0.4.0 on 2026-11-27 for “1708 21st St NW appraisal”". */
export function receivedText(from: ReceivedFrom): string {
  const file = from.fileName.trim() === '' ? 'an unnamed workfile' : `workfile “${from.fileName.trim()}”`;
  const day = from.exportedAt.trim() === '' ? 'an unstated date' : formatDay(from.exportedAt);
  return `Received in ${file}, exported by ${from.exportedBy.trim() || 'an unnamed program'} on ${day} for “${from.assignmentName}”`;
}

const NOT_BOUGHT = 'not bought by this Plat, not re-checked against the service.';

/**
 * What a citation adds in a report that reads answers from a workfile: where they came from, and that
 * this Plat did not buy them. A report that also reads answers bought here names the file's answers
 * (`fromFile`), since one endnote may serve values of both.
 */
export function receivedNote(from: ReceivedFrom, fromFile?: readonly string[]): string {
  return fromFile === undefined
    ? `${receivedText(from)}: ${NOT_BOUGHT}`
    : `Values read from ${fromFile.join('; ')}: ${receivedText(from).replace(/^Received/, 'received')}, ${NOT_BOUGHT}`;
}

/** Whether a citation's text (a report's, a PDF's evidence) carries that note. */
export const saysReceived = (citation: string): boolean => /\b[Rr]eceived in /.test(citation) && citation.includes(NOT_BOUGHT);
