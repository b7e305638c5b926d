// The grid's subject column from the resolved subject: where the answers disagree, a contradiction
// was found or the appraiser chose, the column shows the resolved value (with the others as its
// alternatives and why it was chosen) and computes with it, so the grid, the regression's subject
// inputs, the UAD JSON, the CSV and the PDF grid say what the report's Building section says.
import { formatYear } from '../../format/year.ts';
import type { Cite } from '../../cited/citation-book.ts';
import type { CitedValue } from '../../cited/value.ts';
import { alternativeOf } from '../../report/conflicts.ts';
import { citedValue } from '../answer-values.ts';
import type { GridRowKey, SubjectProperty } from '../model.ts';
import { conditionStep, gradeStep } from '../scales.ts';
import { chosenNumber, chosenYear, type ResolvedCharacteristic, type ResolvedSubject, type SubjectCharacteristicKey } from './resolve.ts';

/** True when the resolved value is not simply the subject report's own (so the column must show it). */
function differs(resolved: ResolvedSubject, key: SubjectCharacteristicKey): boolean {
  const resolution = resolved.characteristics[key].resolution;
  if (!resolution) return false;
  return resolution.alternatives.length > 0 || resolution.choice?.by === 'appraiser' || resolution.staleChoice !== null || resolved.contradictions.some((c) => c.key === key);
}

function gridValue(row: GridRowKey, characteristic: ResolvedCharacteristic, display: string, extra: readonly string[], cite: Cite): CitedValue {
  const resolution = characteristic.resolution!;
  const { chosen } = resolution;
  const limitation = [chosen.note, resolution.staleChoice, ...extra].filter((part): part is string => typeof part === 'string' && part !== '').join(' ') || null;
  const value = citedValue(row, { raw: chosen.raw === true || chosen.raw === false ? String(chosen.raw) : chosen.raw, display, status: chosen.status, citations: chosen.citations, derivedFrom: chosen.status === 'reported' ? null : chosen.derivedFrom, limitation }, cite);
  return {
    ...value,
    alternatives: resolution.alternatives.map((alternative) => alternativeOf(alternative, [...new Set(alternative.citations.map(cite))])),
    choice: resolution.choice,
  };
}

const contradictionsOf = (resolved: ResolvedSubject, ...keys: SubjectCharacteristicKey[]) => resolved.contradictions.filter((c) => keys.includes(c.key)).map((c) => c.text);

/** The subject column with the resolved subject's values where they are not the subject report's own. */
export function applyResolvedSubject(subject: SubjectProperty, resolved: ResolvedSubject, cite: Cite): SubjectProperty {
  const values = { ...subject.values };
  const numbers = { ...subject.numbers };
  const c = resolved.characteristics;
  if (differs(resolved, 'yearBuilt') || differs(resolved, 'yearRemodeled')) {
    const year = c.yearBuilt;
    if (year.resolution) {
      const remodeled = c.yearRemodeled.resolution?.chosen ?? null;
      const display = `Built ${year.resolution.chosen.status === 'reported' || year.resolution.chosen.status === 'synthetic' ? formatYear(String(year.resolution.chosen.raw)) : year.resolution.chosen.display}${remodeled ? ` (remodeled ${remodeled.display})` : ''}`;
      values.actualAge = gridValue('actualAge', year, display, contradictionsOf(resolved, 'yearBuilt', 'yearRemodeled', 'effectiveYearBuilt'), cite);
      numbers.yearBuilt = chosenYear(year);
    }
  }
  if (differs(resolved, 'stories') && c.stories.resolution) {
    values.stories = gridValue('stories', c.stories, c.stories.resolution.chosen.display, contradictionsOf(resolved, 'stories'), cite);
  }
  if (differs(resolved, 'bedrooms') && c.bedrooms.resolution) {
    values.bedrooms = gridValue('bedrooms', c.bedrooms, c.bedrooms.resolution.chosen.display, [], cite);
    numbers.bedrooms = chosenNumber(c.bedrooms);
  }
  if (differs(resolved, 'grade') && c.grade.resolution) {
    values.quality = gridValue('quality', c.grade, c.grade.resolution.chosen.display, [], cite);
    numbers.gradeStep = gradeStep(String(c.grade.resolution.chosen.raw));
  }
  if (differs(resolved, 'condition') && c.condition.resolution) {
    values.condition = gridValue('condition', c.condition, c.condition.resolution.chosen.display, [], cite);
    numbers.conditionStep = conditionStep(String(c.condition.resolution.chosen.raw));
  }
  const area = c.livingArea.resolution ? c.livingArea : c.grossBuildingArea;
  if (differs(resolved, area.key) && area.resolution) {
    values.gla = { ...gridValue('gla', area, area.resolution.chosen.display, [], cite), label: subject.values.gla.label };
    numbers.gla = chosenNumber(area);
  }
  if (differs(resolved, 'landArea') && c.landArea.resolution) {
    values.site = gridValue('site', c.landArea, c.landArea.resolution.chosen.display, [], cite);
    numbers.landAreaSqft = chosenNumber(c.landArea);
  }
  if ((differs(resolved, 'fullBaths') || differs(resolved, 'halfBaths')) && c.fullBaths.resolution) {
    const full = chosenNumber(c.fullBaths);
    const half = chosenNumber(c.halfBaths);
    const display = half === null ? `${full} full` : `${full}.${half}`;
    values.baths = gridValue('baths', c.fullBaths, display, [], cite);
    numbers.baths = full === null ? null : full + 0.5 * (half ?? 0);
  }
  return { ...subject, values, numbers };
}
