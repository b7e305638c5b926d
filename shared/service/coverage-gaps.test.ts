import { describe, expect, it } from 'vitest';
import { coverageGap, jurisdictionsByArea, readCoverageRows } from './coverage-gaps.ts';

// The embedded service's rows (area ids given) and the independent one's (jurisdiction codes only, other names).
const embedded = [
  ...['ownership', 'assessment', 'sale', 'tax', 'permit', 'building_characteristics'].map((domain_key) => ({ area_uid: 'area_us_va_alexandria', jurisdiction: '51510', name: 'City of Alexandria', domain_key, status: 'none' })),
  ...['parcel', 'address', 'location'].map((domain_key) => ({ area_uid: 'area_us_va_alexandria', jurisdiction: '51510', name: 'City of Alexandria', domain_key, status: 'partial' })),
  ...['ownership', 'assessment', 'sale', 'permit', 'building_characteristics'].map((domain_key) => ({ area_uid: 'area_us_dc', jurisdiction: '11001', name: 'District of Columbia', domain_key, status: 'partial' })),
];
const independent = ['ownership', 'assessment', 'sale', 'permit', 'characteristics'].map((domain) => ({ jurisdiction: '51510', name: 'Alexandria', domain, status: 'unavailable' }));

describe('what the coverage says a priced answer will lack', () => {
  it('says Alexandria’s subject report will be mostly “Unavailable”, naming what is missing', () => {
    const gap = coverageGap(readCoverageRows(embedded), 'area_us_va_alexandria', 'subject_report');
    expect(gap?.missing).toEqual(['ownership', 'assessment', 'sale', 'permit', 'characteristics']);
    expect(gap?.mostlyEmpty).toBe(true);
    expect(gap?.sentence).toBe(
      'The service’s catalog says it holds no owner names, assessed values, sales, permits or building characteristics for City of Alexandria: most of the subject report will read “Unavailable”.',
    );
  });

  it('says a comparables search in Alexandria can find no sale', () => {
    expect(coverageGap(readCoverageRows(embedded), 'area_us_va_alexandria', 'comparables_search')?.sentence).toContain('the search can find no sale there.');
  });

  it('says nothing for an area the coverage holds, or one it does not mention', () => {
    expect(coverageGap(readCoverageRows(embedded), 'area_us_dc', 'subject_report')).toBeNull();
    expect(coverageGap(readCoverageRows(embedded), 'area_us_md_montgomery', 'subject_report')).toBeNull();
  });

  it('reads rows without area ids through the jurisdictions facet, and says nothing without it', () => {
    const rows = readCoverageRows(independent);
    expect(coverageGap(rows, 'area_us_va_alexandria', 'subject_summary')).toBeNull();
    const areas = jurisdictionsByArea([{ jurisdiction: '51510', area_uids: ['area_us_va_alexandria'] }]);
    expect(coverageGap(rows, 'area_us_va_alexandria', 'subject_summary', areas)?.sentence).toBe(
      'The service’s catalog says it holds no owner names, assessed values or sales for Alexandria: most of the summary will read “Unavailable”.',
    );
  });
});
