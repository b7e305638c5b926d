import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { CitationChip } from './CitationChip.tsx';
import { fromV4Citation, type CitationView } from '../../shared/cited/citation.ts';

afterEach(cleanup);

const citation: CitationView = {
  publisher: 'DC Office of Tax and Revenue',
  dataset: 'Real Property Tax Database',
  asOf: '2017-02-05T00:00:00Z',
  synthetic: false,
};

describe('CitationChip', () => {
  it('consumes the Escape that closes it: no record panel, page or app handler sees it', () => {
    const panelKey = vi.fn();
    const pageKey = vi.fn();
    window.addEventListener('keydown', pageKey);
    try {
      render(
        // A record panel (React onKeyDown) around the chip, an entity page (window listener) around that.
        <aside onKeyDown={(event) => panelKey(event.key)}>
          <CitationChip citation={citation} />
        </aside>,
      );
      const chip = screen.getByRole('button', { name: /DC OTR · 2017-02-05/ });
      fireEvent.click(chip);
      expect(screen.getByRole('dialog', { name: 'Source of this value' })).toBeTruthy();

      fireEvent.keyDown(chip, { key: 'Escape' });
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(document.activeElement).toBe(chip);
      expect(panelKey).not.toHaveBeenCalled();
      expect(pageKey).not.toHaveBeenCalled();

      // Closed, it takes nothing: the next Escape is the panel's and the page's.
      fireEvent.keyDown(chip, { key: 'Escape' });
      expect(panelKey).toHaveBeenCalledWith('Escape');
      expect(pageKey).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener('keydown', pageKey);
    }
  });

  it('leaves other keys alone while open', () => {
    const pageKey = vi.fn();
    window.addEventListener('keydown', pageKey);
    try {
      render(<CitationChip citation={citation} />);
      const chip = screen.getByRole('button', { name: /DC OTR/ });
      fireEvent.click(chip);
      fireEvent.keyDown(chip, { key: 'Tab' });
      expect(pageKey).toHaveBeenCalledTimes(1);
      expect(screen.getByRole('dialog')).toBeTruthy();
    } finally {
      window.removeEventListener('keydown', pageKey);
    }
  });

  it('shows a v4 citation’s source id and record once each', () => {
    const view = fromV4Citation({ source: 'DC GIS', dataset: 'Square Points', as_of: '2016-08-16T00:00:00Z', source_id: 'dc_gis_square_points', record_ref: 'rec_1', method: 'centroid' });
    render(<CitationChip citation={view} />);
    fireEvent.click(screen.getByRole('button', { name: /DC GIS · 2016-08-16/ }));
    const terms = screen.getAllByRole('term').map((term) => term.textContent);
    expect(terms).toEqual(['Publisher', 'Dataset', 'As of', 'Source id', 'Record', 'method']);
  });

  it('prints the as-of date as a calendar date', () => {
    render(<CitationChip citation={{ ...citation, asOf: '2014-01-22T00:00:00.000Z' }} />);
    fireEvent.click(screen.getByRole('button', { name: /DC OTR · 2014-01-22/ }));
    expect(screen.getByRole('dialog').textContent).toContain('As of2014-01-22');
    expect(screen.getByRole('dialog').textContent).not.toContain('T00:00');
  });
});
