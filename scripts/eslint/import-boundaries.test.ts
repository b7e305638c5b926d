import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import path from 'node:path';
import { boundaryViolation } from './import-boundaries.js';

const root = path.resolve(import.meta.dirname, '../..');

async function lintAs(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'plat/import-boundaries').map((m) => m.message);
}

describe('import boundaries (through ESLint with the project config)', () => {
  it('fires when the renderer imports electron', async () => {
    const messages = await lintAs('renderer/features/bad.ts', "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('renderer/ must never import electron');
  });

  it('fires when the renderer imports a Node built-in or electron/ code', async () => {
    const messages = await lintAs(
      'renderer/features/bad.ts',
      "import fs from 'node:fs';\nimport path from 'path';\nimport { x } from '../../electron/core/thing.ts';\nexport const y = [fs, path, x];\n",
    );
    expect(messages).toHaveLength(3);
  });

  it('fires when shared/ reaches into a runtime', async () => {
    const messages = await lintAs('shared/bad.ts', "import { createHash } from 'node:crypto';\nimport React from 'react';\nexport const z = [createHash, React];\n");
    expect(messages).toHaveLength(2);
  });

  it('fires when core code other than main.ts/preload.ts imports electron', async () => {
    const messages = await lintAs('electron/core/bad.ts', "import { app } from 'electron';\nexport const a = app;\n");
    expect(messages).toEqual([expect.stringContaining('only electron/main.ts and electron/preload.ts import electron')]);
  });

  it('fires when the local service reaches into the rest of electron/', async () => {
    const messages = await lintAs('electron/local-service/bad.ts', "import { x } from '../core/vault.ts';\nexport const b = x;\n");
    expect(messages).toHaveLength(1);
  });

  it('allows what the table allows', async () => {
    expect(await lintAs('renderer/app/ok.ts', "import { z } from 'zod';\nimport { a } from '../../shared/money.ts';\nexport const c = [z, a];\n")).toEqual([]);
    expect(await lintAs('electron/main.ts', "import { app } from 'electron';\nimport { b } from './core/x.ts';\nexport const d = [app, b];\n")).toEqual([]);
    expect(await lintAs('electron/local-service/ok.ts', "import { DatabaseSync } from 'node:sqlite';\nimport { m } from '../../shared/money.ts';\nexport const e = [DatabaseSync, m];\n")).toEqual([]);
  });

  it('fires when one renderer feature imports another, in any form of import', async () => {
    const messages = await lintAs(
      'renderer/features/owners/OwnersView.tsx',
      [
        "import { buyAnswer } from '../entity/use-paid-answer.ts';",
        "export { ResolveTab } from '../search/ResolveTab.tsx';",
        "export * from '../../features/catalog/catalog-model.ts';",
        "export const later = () => import('../spend/SpendView.tsx');",
        'export const x = buyAnswer;',
      ].join('\n'),
    );
    expect(messages).toHaveLength(4);
    expect(messages[0]).toContain('renderer/features/owners/ must not import another feature (renderer/features/entity/)');
    expect(messages[0]).toContain('renderer/components/ or renderer/platform/');
  });

  it('lets a feature import its own files, components, platform and the app; lets the app import every feature', async () => {
    expect(
      await lintAs(
        'renderer/features/find/FindBox.tsx',
        [
          "import { a } from './find-model.ts';",
          "import { b } from '../../components/owner-lookup.ts';",
          "import { c } from '../../platform/paid-answer.ts';",
          "import { d } from '../../app/ui-store.ts';",
          "import { e } from '../find/find-model.ts';",
          'export const y = [a, b, c, d, e];',
        ].join('\n'),
      ),
    ).toEqual([]);
    expect(
      await lintAs(
        'renderer/app/view-registry.tsx',
        "import { SearchView } from '../features/search/SearchView.tsx';\nimport { OwnersView } from '../features/owners/OwnersView.tsx';\nexport const v = [SearchView, OwnersView];\n",
      ),
    ).toEqual([]);
    // A feature named like the start of another is still another feature.
    expect(boundaryViolation('renderer/features/search/a.ts', '../search-extra/b.ts', root)).toMatch(/must not import another feature/);
  });

  it('keeps query keys in one module: a key written in place is refused', async () => {
    const eslint = new ESLint({ cwd: root });
    const [result] = await eslint.lintText("export const q = { queryKey: ['spend'], queryFn: () => 1 };\n", {
      filePath: path.join(root, 'renderer/features/spend/bad.ts'),
    });
    expect((result?.messages ?? []).map((m) => m.message)).toEqual(['Query keys live in renderer/platform/query-keys.ts.']);
  });

  it('classifies paths without ESLint too', () => {
    expect(boundaryViolation('shared/a.ts', './b.ts', root)).toBeNull();
    expect(boundaryViolation('shared/a.ts', '../renderer/b.ts', root)).toMatch(/only itself/);
    expect(boundaryViolation('electron/preload.ts', 'electron', root)).toBeNull();
  });
});
