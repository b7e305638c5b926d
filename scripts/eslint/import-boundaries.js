// @ts-check
// Enforces where code may reach, in the spirit of VS Code's `code-import-patterns`:
// the folder a file lives in decides what it may import (see docs/renderer-notes.md, Import boundaries).
import path from 'node:path';
import { builtinModules } from 'node:module';

const nodeBuiltins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** @param {string} p */
const posix = (p) => p.split(path.sep).join('/');

/**
 * The zone a repo-relative file path belongs to.
 * @param {string} rel
 */
function zoneOf(rel) {
  if (rel.startsWith('shared/')) return 'shared';
  if (rel.startsWith('renderer/')) return 'renderer';
  if (rel.startsWith('electron/local-service/')) return 'local-service';
  if (rel === 'electron/main.ts' || rel === 'electron/preload.ts') return 'electron-entry';
  if (rel.startsWith('electron/')) return 'electron-core';
  return 'other';
}

/**
 * The feature folder a repo-relative path is in (`renderer/features/<feature>/…`), or null.
 * @param {string} rel
 */
function featureOf(rel) {
  const match = /^renderer\/features\/([^/]+)\//.exec(rel);
  return match ? (match[1] ?? null) : null;
}

/**
 * Why `specifier` may not be imported from `fromRel`, or null when it may.
 * @param {string} fromRel repo-relative path of the importing file
 * @param {string} specifier the import source as written
 * @param {string} root repo root
 */
export function boundaryViolation(fromRel, specifier, root) {
  const zone = zoneOf(fromRel);
  if (zone === 'other') return null;
  const isRelative = specifier.startsWith('.') || specifier.startsWith('/');
  const targetRel = isRelative
    ? posix(path.relative(root, path.resolve(root, path.dirname(fromRel), specifier)))
    : null;
  const targetZone = targetRel === null ? null : zoneOf(targetRel);
  const isElectron = specifier === 'electron' || specifier.startsWith('electron/');
  const isNode = nodeBuiltins.has(specifier) || specifier.startsWith('node:');

  switch (zone) {
    case 'shared':
      if (isElectron) return 'shared/ must not import electron';
      if (isNode) return 'shared/ is pure: no Node built-ins';
      if (specifier === 'react' || specifier.startsWith('react-dom') || specifier.startsWith('react/'))
        return 'shared/ must not import React';
      if (targetZone && targetZone !== 'shared') return 'shared/ imports only itself';
      return null;
    case 'renderer': {
      if (isElectron) return 'renderer/ must never import electron';
      if (isNode) return 'renderer/ must never import Node built-ins';
      if (targetZone && targetZone !== 'renderer' && targetZone !== 'shared')
        return 'renderer/ imports only shared/ and its own files';
      // Features do not import each other: what two features share lives in renderer/components/
      // or renderer/platform/. renderer/app (which mounts the features) may import any of them.
      const fromFeature = featureOf(fromRel);
      const toFeature = targetRel === null ? null : featureOf(targetRel);
      if (fromFeature && toFeature && fromFeature !== toFeature)
        return `renderer/features/${fromFeature}/ must not import another feature (renderer/features/${toFeature}/): move what both need to renderer/components/ or renderer/platform/`;
      return null;
    }
    case 'local-service':
      if (isElectron) return 'only electron/main.ts and electron/preload.ts import electron';
      if (targetZone && targetZone !== 'local-service' && targetZone !== 'shared')
        return 'electron/local-service/ imports only shared/ and itself';
      return null;
    case 'electron-core':
      if (isElectron) return 'only electron/main.ts and electron/preload.ts import electron';
      if (targetZone === 'renderer') return 'electron/ must not import renderer/';
      return null;
    case 'electron-entry':
      if (targetZone === 'renderer') return 'electron/ must not import renderer/';
      return null;
    default:
      return null;
  }
}

/** @type {import('eslint').Rule.RuleModule} */
export const importBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep shared/, renderer/ and electron/ inside their boundaries' },
    schema: [],
    messages: { violation: "Import of '{{specifier}}' crosses a boundary: {{reason}}." },
  },
  create(context) {
    const root = context.cwd;
    const fromRel = posix(path.relative(root, context.filename));
    /** @param {any} node @param {unknown} source */
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      const reason = boundaryViolation(fromRel, source, root);
      if (reason) context.report({ node, messageId: 'violation', data: { specifier: source, reason } });
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal')
          check(node.arguments[0], node.arguments[0].value);
      },
    };
  },
};

export default { rules: { 'import-boundaries': importBoundaries } };
