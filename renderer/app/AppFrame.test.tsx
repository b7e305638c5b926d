// The frame by the keyboard, its views stubbed out (each view's own screen has its tests): the
// sidebar's shortcuts read 1 to 9 from the top, and a view opened by its shortcut has the focus on
// its heading, not on the page body.
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { AppFrame } from './AppFrame.tsx';
import { useUiStore } from './ui-store.ts';
import { renderWithQueries, setUpViewTests } from '../platform/view-test-kit.tsx';

vi.mock('./view-registry.tsx', () => ({ viewComponents: {}, entityPage: { component: null }, ownerPage: { component: null } }));
vi.mock('./StatusLine.tsx', () => ({ StatusLine: () => null }));
vi.mock('./HostLinkNotice.tsx', () => ({ HostLinkNotice: () => null }));

setUpViewTests({ afterCleanup: () => useUiStore.setState({ activeView: 'search', entityTrail: [], viewOpenedTick: 0 }) });

describe('AppFrame', () => {
  it('lists the views with their shortcuts in order, 1 to 9', async () => {
    await renderWithQueries(<AppFrame />, 0);
    const nav = screen.getByRole('navigation', { name: 'Views' });
    const shortcuts = within(nav)
      .getAllByRole('listitem')
      .map((item) => Number(item.querySelector('kbd')?.textContent?.replace(/\D/g, '')));
    expect(shortcuts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('puts the focus on the view’s heading after each view shortcut', async () => {
    await renderWithQueries(<AppFrame />, 0);
    for (const [digit, label] of [
      [3, 'Catalog'],
      [6, 'Assignments'],
      [9, 'Settings'],
      [2, 'Owners'],
    ] as const) {
      act(() => {
        fireEvent.keyDown(window, { key: String(digit), ctrlKey: true });
      });
      const heading = screen.getByRole('heading', { level: 1 });
      expect(heading.textContent).toBe(label);
      expect(document.activeElement).toBe(heading);
    }
  });

  it('puts the focus on the heading when the view is opened from the sidebar', async () => {
    await renderWithQueries(<AppFrame />, 0);
    act(() => {
      fireEvent.click(within(screen.getByRole('navigation', { name: 'Views' })).getByRole('button', { name: /^Spend/ }));
    });
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Spend' }));
  });
});
