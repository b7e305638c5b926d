// jStat ships no types: only what shared/stats/ols.ts uses (Student's t quantile for confidence intervals).
declare module 'jstat' {
  const jStat: {
    studentt: {
      /** The quantile: x with P(T ≤ x) = p for `dof` degrees of freedom. */
      inv(p: number, dof: number): number;
    };
  };
  export default jStat;
}
