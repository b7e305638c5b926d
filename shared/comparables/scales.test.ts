import { describe, expect, it } from 'vitest';
import { CONDITION_SCALE, conditionStep, GRADE_SCALE, gradeStep } from './scales.ts';

describe('DC CAMA grade steps', () => {
  it('numbers the scale from Low Quality to Exceptional-D', () => {
    expect(GRADE_SCALE.map(gradeStep)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(gradeStep('Very Good')! - gradeStep('Average')!).toBe(3);
  });

  it('reads the spellings extracts use', () => {
    expect(gradeStep('VERY GOOD')).toBe(5);
    expect(gradeStep(' Exceptional A ')).toBe(8);
    expect(gradeStep('Good')).toBe(gradeStep('Good Quality'));
  });

  it('has no step for a grade not on the scale', () => {
    expect(gradeStep('Default')).toBeNull();
    expect(gradeStep('')).toBeNull();
    expect(gradeStep(null)).toBeNull();
    expect(gradeStep('Superb')).toBeNull();
  });
});

describe('DC CAMA condition steps', () => {
  it('numbers the scale from Poor to Excellent', () => {
    expect(CONDITION_SCALE.map(conditionStep)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(conditionStep('very good')).toBe(4);
  });

  it('reads "Default" (not rated) and unknown words as no step', () => {
    expect(conditionStep('Default')).toBeNull();
    expect(conditionStep('Average Quality')).toBeNull();
    expect(conditionStep(undefined)).toBeNull();
  });
});
