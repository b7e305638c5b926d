// Property-based tests explore new random cases on every local run; in CI they replay one fixed
// seed, so a landing never depends on the luck of the draw (a failure there is reproducible).
import fc from 'fast-check';

if (process.env.CI) fc.configureGlobal({ seed: 20261122 });
