import { describe, expect, it } from 'vitest';
import { toTsv, type Column } from './DataTable.tsx';

describe('toTsv', () => {
  it('copies rows as tab-separated text in which no cell runs as a formula once pasted', () => {
    const columns: Column<{ owner: string; price: string }>[] = [
      { id: 'owner', header: 'Owner', text: (row) => row.owner },
      { id: 'price', header: 'Price', text: (row) => row.price },
    ];
    const rows = [
      { owner: "=cmd|' /C calc'!A0", price: '$905,000' },
      { owner: 'SMITH\t\uFF1DHYPERLINK("x")', price: '\u00A0@SUM(A1)' },
    ];
    expect(toTsv(columns, rows).split('\n')).toEqual(['Owner\tPrice', "'=cmd|' /C calc'!A0\t$905,000", 'SMITH \uFF1DHYPERLINK("x")\t\'\u00A0@SUM(A1)']);
  });
});
