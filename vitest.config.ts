import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          setupFiles: ['./vitest.setup.ts'],
          include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'scripts/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'dom',
          environment: 'happy-dom',
          setupFiles: ['./vitest.setup.ts', './vitest.dom-setup.ts'],
          // The design tokens are read as text (`tokens.css?raw`) by what draws with them (the charts).
          css: { include: [/design\/tokens\.css/] },
          include: ['renderer/**/*.test.ts', 'renderer/**/*.test.tsx'],
        },
      },
    ],
  },
});
