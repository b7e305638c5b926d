// A report picture is drawn once per spec in a page: the same report shown (or printed) again reuses
// it; a picture that failed is drawn again next time.
import { describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { settle, setUpViewTests } from '../../platform/view-test-kit.tsx';
import { useReportImage, type ReportImageState } from './report-image.ts';

function Picture({ spec, draw }: { spec: { id: string }; draw: (spec: { id: string }) => Promise<ReportImageState<{ url: string }>> }) {
  const image = useReportImage(spec, draw);
  return <p data-testid="picture">{image === null ? 'none' : image.status === 'ready' ? image.url : image.status}</p>;
}

setUpViewTests();

describe('useReportImage', () => {
  it('draws a spec once, and shows it at once when the same report is shown again', async () => {
    const draw = vi.fn(async (spec: { id: string }): Promise<ReportImageState<{ url: string }>> => ({ status: 'ready', url: `picture of ${spec.id}` }));
    render(<Picture spec={{ id: 'map-1' }} draw={draw} />);
    await settle(20);
    expect(screen.getByTestId('picture').textContent).toBe('picture of map-1');
    cleanup();
    render(<Picture spec={{ id: 'map-1' }} draw={draw} />);
    // No "loading" first: the kept picture is shown on the first render.
    expect(screen.getByTestId('picture').textContent).toBe('picture of map-1');
    expect(draw).toHaveBeenCalledTimes(1);
    cleanup();
    render(<Picture spec={{ id: 'map-2' }} draw={draw} />);
    await settle(20);
    expect(draw).toHaveBeenCalledTimes(2);
    cleanup();
  });

  it('draws a picture that failed again the next time', async () => {
    const draw = vi.fn(async (): Promise<ReportImageState<{ url: string }>> => ({ status: 'failed', message: 'no WebGL here' }));
    render(<Picture spec={{ id: 'graph-1' }} draw={draw} />);
    await settle(20);
    expect(screen.getByTestId('picture').textContent).toBe('failed');
    cleanup();
    render(<Picture spec={{ id: 'graph-1' }} draw={draw} />);
    await settle(20);
    expect(draw).toHaveBeenCalledTimes(2);
    cleanup();
  });
});
