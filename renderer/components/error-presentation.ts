// How a PlatError reads on screen: a title, what happened, and what to do next. The core's messages
// are "<what happened> — <next step>" (shared/errors.ts), so the two halves are split apart and each
// shown once; a message that names its own next step (a budget refusal) keeps it.
import { errorFor, isPlatErrorCode, type PlatError } from '../../shared/errors.ts';

/** Where the fix for an error lives in Plat, when it lives in Plat at all. */
export type ErrorFixPlace = 'settings' | null;

export interface ErrorPresentation {
  code: string;
  title: string;
  /** What happened, in the service's or the core's own words when they gave any. */
  detail: string;
  /** What to do next; null when the detail already says it. */
  nextStep: string | null;
  retryable: boolean;
  fixIn: ErrorFixPlace;
}

const SEPARATOR = ' — ';

// The fix is a Settings change: the key, or a cap.
const FIXED_IN_SETTINGS = new Set(['unauthorized', 'key_not_configured', 'budget_exceeded']);

const sentence = (text: string): string => {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capitalised) ? capitalised : `${capitalised}.`;
};

// Refusals the core words itself, instruction included ("Raise the cap in Settings to continue.").
const SELF_INSTRUCTING = new Set(['budget_exceeded', 'confirmation_required']);

export function presentError(error: PlatError): ErrorPresentation {
  const known = isPlatErrorCode(error.code);
  const entry = errorFor(error.code);
  const message = error.message.trim();
  let detail = message;
  let nextStep: string | null = entry.nextStep;
  const cut = message.lastIndexOf(SEPARATOR);
  const tail = cut > 0 ? message.slice(cut + SEPARATOR.length).trim() : null;
  if (tail !== null && tail.toLowerCase() === entry.nextStep.toLowerCase()) detail = message.slice(0, cut);
  else if (SELF_INSTRUCTING.has(error.code) || message.toLowerCase().includes(entry.nextStep.toLowerCase())) nextStep = null;
  if (detail.trim() === '') detail = entry.summary;
  return {
    code: error.code,
    title: known ? entry.title : errorFor('internal').title,
    detail: sentence(detail),
    nextStep: nextStep === null ? null : sentence(nextStep),
    retryable: error.retryable,
    fixIn: FIXED_IN_SETTINGS.has(error.code) ? 'settings' : null,
  };
}
