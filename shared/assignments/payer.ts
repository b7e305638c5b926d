// Which file pays for a lookup: the decision whether a priced lookup concerns the active assignment's
// subject (then it is the assignment's, as before) or something else, which the person must place in
// a file themselves — that assignment, none, or a new one — before anything is charged.

/** Where a lookup outside the active assignment's subject is booked, as the person chose. */
export type PayerChoice = 'assignment' | 'none' | 'new';

export const payerChoiceLabels: Record<PayerChoice, string> = {
  assignment: 'This assignment',
  none: 'No assignment',
  new: 'A new assignment',
};

/** Upper case, letters and digits only, one space between words, common street words shortened. */
function comparable(text: string): string {
  const words = text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '');
  const short: Record<string, string> = { STREET: 'ST', AVENUE: 'AVE', AV: 'AVE', ROAD: 'RD', PLACE: 'PL', DRIVE: 'DR', COURT: 'CT', TERRACE: 'TER', BOULEVARD: 'BLVD', NORTHWEST: 'NW', NORTHEAST: 'NE', SOUTHWEST: 'SW', SOUTHEAST: 'SE', EAST: 'E', WEST: 'W' };
  return words.map((word) => short[word] ?? word).join(' ');
}

export interface AssignmentSubject {
  subjectRef: string;
  /** How the subject reads ("1708 21ST ST NW · SSL 0065 0007"): each part separated by " · " is a name for it. */
  subjectLabel: string;
}

/**
 * Whether the looked-up text names the assignment's subject: its entity id, or one of the names its
 * label gives (the address, the SSL…), compared without case, punctuation or "Street"/"St".
 */
export function lookupConcernsSubject(lookup: string, subject: AssignmentSubject): boolean {
  const text = lookup.trim();
  if (text === '') return true;
  if (text.toLowerCase() === subject.subjectRef.toLowerCase()) return true;
  const asked = comparable(text);
  const names = subject.subjectLabel
    .split('·')
    .map((part) => comparable(part.replace(/^\s*(SSL|ACCOUNT|ACCT)\b/i, '')))
    .filter((name) => name !== '');
  return names.some((name) => name === asked);
}

/**
 * The file a priced lookup is booked to: the active assignment when it concerns the subject (or
 * none is active); otherwise what the person chose. `null` asks: the choice is the person's.
 */
export type Payer = { kind: 'project'; projectId: string } | { kind: 'none' } | { kind: 'new' };

export function payerFor(input: {
  lookup: string;
  /** The active project's id (an assignment or a plain project); null when none is active. */
  activeProjectId: string | null;
  /** The active assignment's subject; null for a plain project or none. */
  subject: AssignmentSubject | null;
  /** The choice remembered for this session, if any. */
  remembered: PayerChoice | null;
  /** Whether the lookup costs money now (a free or cached one never asks). */
  priced: boolean;
}): Payer | null {
  const { activeProjectId, subject } = input;
  if (activeProjectId === null) return { kind: 'none' };
  if (subject === null || !input.priced || lookupConcernsSubject(input.lookup, subject)) return { kind: 'project', projectId: activeProjectId };
  if (input.remembered === null) return null;
  return payerOf(input.remembered, activeProjectId);
}

export function payerOf(choice: PayerChoice, activeId: string): Payer {
  if (choice === 'assignment') return { kind: 'project', projectId: activeId };
  return { kind: choice };
}
