// What the graph says about the answers it could not read: each shown as published, with its citations.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { buildGraph } from '../../../shared/graph/build-graph.ts';
import { independentRelationships, RELATIONSHIP_IDS } from '../../../shared/service/dialect-test-kit.ts';
import { GraphStatus } from './GraphStatus.tsx';

afterEach(cleanup);

describe('GraphStatus', () => {
  it('shows a relationships answer it could not read as published, with its sources, beside the problem', () => {
    const answer = independentRelationships();
    (answer.data as Record<string, unknown>).edges = 'see nodes';
    const { problems, unread } = buildGraph(RELATIONSHIP_IDS.property, [{ kind: 'relationships', envelope: answer }]);
    render(<GraphStatus caps={[]} notes={[]} problems={problems} cutOff={[]} unread={unread} />);
    const box = screen.getByTestId('unrecognised-answer');
    expect(box.textContent).toContain('Plat could not read the relationships answer');
    expect(within(box).getByText('edges').nextSibling?.textContent).toBe('see nodes');
    expect(within(box).getAllByRole('button', { name: /^DC OTR/ })).toHaveLength(2);
    expect(screen.getByText(/not in the shape Plat reads/)).toBeTruthy();
  });
});
