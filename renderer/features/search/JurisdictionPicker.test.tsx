import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { JurisdictionPicker } from './JurisdictionPicker.tsx';

afterEach(cleanup);

describe('JurisdictionPicker', () => {
  it('finds a jurisdiction by name and chooses it with the keyboard', () => {
    const onChange = vi.fn();
    render(<JurisdictionPicker id="j" value="11001" onChange={onChange} />);
    const input = screen.getByRole('combobox');
    expect((input as HTMLInputElement).value).toBe('District of Columbia');
    fireEvent.change(input, { target: { value: 'montgomery' } });
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Montgomery County, MDMD · 24031']);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledWith('24031');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('puts the chosen name back on Escape, changing nothing', () => {
    const onChange = vi.fn();
    render(<JurisdictionPicker id="j" value="51510" onChange={onChange} />);
    const input = screen.getByRole('combobox') as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'fair' } });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input.getAttribute('aria-activedescendant')).toMatch(/51600$/);
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(input.value).toBe('Alexandria city, VA');
    expect(onChange).not.toHaveBeenCalled();
  });
});
