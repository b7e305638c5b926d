import { describe, expect, it } from 'vitest';
import { errorCatalogue, errorFor, platErrorCodes, toPlatError } from '../../shared/errors.ts';
import { presentError } from './error-presentation.ts';

const sentence = (text: string) => {
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?…]$/.test(capitalised) ? capitalised : `${capitalised}.`;
};

describe('presentError', () => {
  it('gives every catalogue code its title, what happened and its next step, each once', () => {
    for (const code of platErrorCodes) {
      const entry = errorFor(code);
      const presented = presentError(toPlatError(code));
      expect(presented.title, code).toBe(entry.title);
      expect(presented.detail, code).toBe(sentence(entry.summary));
      expect(presented.nextStep, code).toBe(sentence(entry.nextStep));
      expect(presented.detail).not.toContain(entry.nextStep);
      expect(presented.retryable).toBe(entry.retryable);
    }
  });

  it('keeps the service’s own words and adds the catalogue’s next step', () => {
    const presented = presentError(toPlatError(400, { code: 'invalid_limit', message: 'limit: must be at most 100' }));
    expect(presented.title).toBe('Invalid request');
    expect(presented.detail).toBe('Limit: must be at most 100.');
    expect(presented.nextStep).toBe('Correct the highlighted value and try again.');
  });

  it('does not repeat a next step a refusal already words itself', () => {
    const presented = presentError({
      code: 'budget_exceeded',
      message: 'This search costs $0.02, which would take this session to $0.04, over its $0.03 cap. Raise the cap in Settings to continue.',
      retryable: false,
    });
    expect(presented.title).toBe(errorCatalogue.budget_exceeded.title);
    expect(presented.detail).toContain('over its $0.03 cap');
    expect(presented.nextStep).toBeNull();
    expect(presented.fixIn).toBe('settings');
  });

  it('adds the next step to a message that has none (the bridge’s own failures)', () => {
    const presented = presentError({ code: 'network_error', message: 'Plat is not answering. Is it still running?', retryable: true });
    expect(presented.detail).toBe('Plat is not answering. Is it still running?');
    expect(presented.nextStep).toBe('Check the connection and try again.');
  });

  it('shows a charged answer Plat could not read as charged, with what was wrong and the free retry', () => {
    const presented = presentError({
      code: 'charged_answer_unreadable',
      message: "The service charged $0.10 for this call, but the service's answer could not be read: meta: Invalid input — try again: the same request is replayed free",
      retryable: true,
    });
    expect(presented.title).toBe('Charged, answer unreadable');
    expect(presented.detail).toBe("The service charged $0.10 for this call, but the service's answer could not be read: meta: Invalid input.");
    expect(presented.nextStep).toBe('Try again: the same request is replayed free.');
    expect(presented.retryable).toBe(true);
  });

  it('points key and cap problems to Settings, and nothing else', () => {
    const inSettings = platErrorCodes.filter((code) => presentError(toPlatError(code)).fixIn === 'settings').sort();
    expect(inSettings).toEqual(['budget_exceeded', 'key_not_configured', 'unauthorized']);
  });

  it('shows an unknown code as an unexpected problem without losing its message', () => {
    const presented = presentError({ code: 'something_new', message: 'The frobnicator failed', retryable: false });
    expect(presented.title).toBe(errorCatalogue.internal.title);
    expect(presented.detail).toBe('The frobnicator failed.');
    expect(presented.code).toBe('something_new');
  });
});
