// A part of a paid answer Plat could not read: shown as published, in rows, with every citation it
// carries as chips and one sentence naming the part; never a JSON blob, never silently dropped.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { UnrecognisedAnswer } from './UnrecognisedAnswer.tsx';
import { OTR_CITATION } from '../../shared/service/dialect-test-kit.ts';

afterEach(cleanup);

describe('UnrecognisedAnswer', () => {
  it('lays the value out as rows by path, its citations as chips, and says which part it could not read', () => {
    render(<UnrecognisedAnswer part="the “Roof” entry" value={{ material: 'slate', pitch: { degrees: 40 }, citation: OTR_CITATION, source_refs: ['dc_cama@2017'] }} />);
    const box = screen.getByTestId('unrecognised-answer');
    expect(box.textContent).toContain('Plat could not read the “Roof” entry: it is shown as published, not recognised by Plat.');
    expect(within(box).getByText('material').nextSibling?.textContent).toBe('slate');
    expect(within(box).getByText('pitch.degrees').nextSibling?.textContent).toBe('40');
    // The citation object is a chip, not a row; a ref no source places is a chip named by its source id.
    expect(within(box).queryByText('citation.source')).toBeNull();
    expect(within(box).getByRole('button', { name: /^DC OTR · 2017-02-05/ })).toBeTruthy();
    expect(within(box).getByRole('button', { name: /^dc_cama@2017: source unknown/ })).toBeTruthy();
    expect(box.textContent).not.toContain('{');
  });

  it('shows a bare value as it is, and says when the answer names no source for it', () => {
    render(<UnrecognisedAnswer part="the “Assessed value” entry" value="18402.50" citations={[]} />);
    const box = screen.getByTestId('unrecognised-answer');
    expect(within(box).getByText('18402.50')).toBeTruthy();
    expect(within(box).getByText('The answer names no source for it.')).toBeTruthy();
  });
});
