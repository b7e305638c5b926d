// The entity graph in headless Chromium: a small page mounting the real EntityGraph (bundled with
// esbuild into a temp folder, served with the app's Content-Security-Policy, so a layout that needs
// eval or an inline worker fails here as it would in the app). Measured from the spec handed to
// React to onLayoutDone (layout run and the frame that shows it drawn): 200 nodes / 200 edges
// layered (elk) and force (fcose), 2,000 nodes force, and an expansion adding 10 neighbours to one
// node of a drawn graph; and DISTRICT OF COLUMBIA's portfolio from the sample (its owner search over
// the embedded service, every page) at depth 2, its holdings in groups by street, then one group
// opened. Targets: 200 ≤ 500 ms, 2,000 ≤ 3 s, expand ≤ 100 ms, the portfolio ≤ 500 ms, a group ≤ 100 ms.
// A smoke pass draws the large graph at 500 nodes: it only shows that every case runs.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { contentSecurityPolicy, securityHeaders } from '../../electron/web/content-security.ts';
import { readStaticFile } from '../../electron/web/static-files.ts';
import { seededRandom } from '../../electron/local-service/server.ts';
import { graphNodeKindLabels, type GraphEdge, type GraphNode, type GraphNodeKind, type GraphSpec } from '../../shared/graph/graph-spec.ts';
import { buildGraph, graphSpec, type GraphAnswer } from '../../shared/graph/build-graph.ts';
import { drawnGraph } from '../../shared/graph/portfolio-groups.ts';
import { ownerSearchBody } from '../../renderer/components/owner-lookup.ts';
import { startSecondService } from '../../electron/local-service/second-service-kit.ts';
import { atMostMs, latencyFigures, type BenchOptions, type LatencyFigures } from './measure.ts';
import { launchChromium } from './chromium.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

// The page: EntityGraph mounted by React, driven from Playwright through window.graphPage.
const pageEntry = `
import 'graph-page:zod-jitless';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import './renderer/design/tokens.css';
import './renderer/design/base.css';
import { EntityGraph } from './renderer/components/graph/EntityGraph.tsx';
import { renderGraphImage } from './renderer/components/graph/render-graph-image.ts';

const host = document.getElementById('graph');
let root = null;
let props = null;
const page = {
  events: [],
  cspViolations: [],
  mount(spec, theme) {
    if (root) root.unmount();
    root = createRoot(host);
    return page.update(spec, theme ?? 'light');
  },
  update(spec, theme) {
    return new Promise((resolve) => {
      const started = performance.now();
      props = {
        ...props,
        spec,
        theme: theme ?? props.theme,
        onLayoutDone: (reportedMs) => resolve({ ms: performance.now() - started, reportedMs }),
        onSelectNode: (id) => page.events.push({ type: 'selectNode', id }),
        onSelectEdge: (id) => page.events.push({ type: 'selectEdge', id }),
        onExpandNode: (id) => page.events.push({ type: 'expandNode', id }),
      };
      root.render(createElement(EntityGraph, props));
    });
  },
  image(spec, widthPx, heightPx) {
    return renderGraphImage({ spec, widthPx, heightPx });
  },
};
document.addEventListener('securitypolicyviolation', (event) =>
  page.cspViolations.push(event.violatedDirective + ' (' + event.blockedURI + ' at ' + event.sourceFile + ':' + event.lineNumber + ':' + event.columnNumber + ')'),
);
window.graphPage = page;
`;

const pageHtml = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy.replace(/; frame-ancestors 'none'/, '')}" />
    <title>Entity graph bench</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="./page.css" />
    <link rel="stylesheet" href="./stdin.css" />
  </head>
  <body>
    <div id="graph"></div>
    <script type="module" src="./stdin.js"></script>
  </body>
</html>
`;

const pageCss = `html, body { margin: 0; height: 100%; }
#graph { height: 100vh; }
`;

/**
 * zod probes for eval (new Function) as its schemas load, and catches the refusal, which the CSP
 * still reports; set up first, before any schema, so any violation the page reports is the graph's.
 */
const zodJitless: Plugin = {
  name: 'zod-jitless',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^graph-page:zod-jitless$/ }, () => ({ path: 'zod-jitless', namespace: 'graph-page' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'graph-page' }, () => ({ contents: "import { z } from 'zod';\nz.config({ jitless: true });\n", resolveDir: root, loader: 'js' }));
  },
};

/** Vite's `?raw` imports (the design tokens read as text), for esbuild. */
const rawText: Plugin = {
  name: 'raw-text',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /\?raw$/ }, (args) => ({ path: path.resolve(args.resolveDir, args.path.replace(/\?raw$/, '')), namespace: 'raw-text' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'raw-text' }, async (args) => ({ contents: await readFile(args.path, 'utf8'), loader: 'text' }));
  },
};

/** Bundles the graph page into a new temp folder; returns the folder. */
export async function bundleGraphPage(): Promise<string> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'plat-graph-page-'));
  await build({
    stdin: { contents: pageEntry, resolveDir: root, loader: 'tsx', sourcefile: 'graph-page.tsx' },
    bundle: true,
    format: 'esm',
    target: 'chrome120',
    jsx: 'automatic',
    outdir: outDir,
    minify: process.env.PLAT_GRAPH_PAGE_MINIFY !== '0',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [zodJitless, rawText],
    logLevel: 'warning',
  });
  writeFileSync(path.join(outDir, 'index.html'), pageHtml);
  writeFileSync(path.join(outDir, 'page.css'), pageCss);
  return outDir;
}

/** Serves a folder on loopback with the app's security headers. */
export async function serveFolder(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    void readStaticFile(dir, request.url ?? '/').then((file) => {
      if (!file) {
        response.writeHead(404, securityHeaders).end();
        return;
      }
      response.writeHead(200, { ...securityHeaders, 'Content-Type': file.contentType }).end(file.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the graph page server has no port');
  return { url: `http://127.0.0.1:${address.port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Opens the bundled page; fails when the page reports an error or a CSP violation. */
export async function openGraphPage(page: Page, url: string): Promise<void> {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);
  await page.waitForFunction(() => 'graphPage' in window);
  if (errors.length > 0) throw new Error(`the graph page failed: ${errors.join('; ')}`);
}

export async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { graphPage: { cspViolations: string[] } }).graphPage.cspViolations);
}

export function mountGraph(page: Page, spec: GraphSpec, theme: 'light' | 'dark' = 'light'): Promise<{ ms: number; reportedMs: number }> {
  return page.evaluate(
    ([s, t]) => (window as unknown as { graphPage: { mount: (spec: unknown, theme: string) => Promise<{ ms: number; reportedMs: number }> } }).graphPage.mount(s, t),
    [spec, theme] as const,
  );
}

export function updateGraph(page: Page, spec: GraphSpec): Promise<{ ms: number; reportedMs: number }> {
  return page.evaluate(
    (s) => (window as unknown as { graphPage: { update: (spec: unknown) => Promise<{ ms: number; reportedMs: number }> } }).graphPage.update(s),
    spec,
  );
}

// ---------------------------------------------------------------------------------------------
// Graphs to draw

const streets = ['21ST ST NW', 'R ST NW', 'S ST NW', 'CORCORAN ST NW', 'NEW HAMPSHIRE AVE NW', '20TH ST NW', 'Q ST NW', 'CONNECTICUT AVE NW'];
const owners = ['JOEL KUIPERS', 'DISTRICT OF COLUMBIA', 'DUPONT CIRCLE LLC', 'MARY A SMITH', 'R STREET HOLDINGS LP', 'JOHN DOE TRUSTEE'];
const chain: GraphNodeKind[] = ['property', 'parcel', 'tax_account', 'owner', 'property', 'address', 'unit', 'building'];
const edgeWords: Record<GraphNodeKind, string> = {
  property: 'also at',
  parcel: 'located on',
  unit: 'has unit',
  tax_account: 'taxed under',
  address: 'known as',
  owner: 'owned by',
  building: 'stands on',
  land_interest: 'holds',
};

function nodeFor(index: number, kind: GraphNodeKind, depth: number, random: () => number): GraphNode {
  const street = streets[index % streets.length] ?? '';
  const label =
    kind === 'owner'
      ? `${owners[index % owners.length]} ${index}`
      : kind === 'parcel'
        ? `SSL ${String(60 + (index % 40)).padStart(4, '0')} ${String(index).padStart(4, '0')}`
        : kind === 'tax_account'
          ? `Account ${100000 + index}`
          : `${1600 + index} ${street}`;
  return { id: `n${index}`, kind, label, sublabel: `${graphNodeKindLabels[kind]} · ${Math.floor(random() * 9000) + 1000}`, root: index === 0, depth, expandable: random() < 0.2 };
}

/**
 * A graph of `nodeCount` entities and `edgeCount` links, shaped like a research graph: a tree from
 * the root (property → parcel → account → owner → other holdings…) with extra same-name leads.
 */
export function syntheticGraph(nodeCount: number, edgeCount: number, layout: GraphSpec['layout'], seed = 11): GraphSpec {
  const random = seededRandom(seed);
  const nodes: GraphNode[] = [nodeFor(0, 'property', 0, random)];
  const edges: GraphEdge[] = [];
  for (let index = 1; index < nodeCount; index++) {
    // Recent nodes are likelier parents, so chains grow deep as well as wide.
    const parentIndex = Math.floor(index - 1 - Math.floor(random() ** 2 * index));
    const parent = nodes[Math.max(0, parentIndex)] ?? nodes[0]!;
    const kind = chain[(chain.indexOf(parent.kind) + 1) % chain.length] ?? 'property';
    const node = nodeFor(index, kind, parent.depth + 1, random);
    nodes.push(node);
    edges.push({ id: `e${edges.length}`, source: parent.id, target: node.id, label: edgeWords[kind], strength: 'fact', decision: null, confidence: null });
  }
  const seen = new Set(edges.map((edge) => `${edge.source}>${edge.target}`));
  while (edges.length < edgeCount) {
    const source = nodes[Math.floor(random() * nodes.length)]!;
    const target = nodes[Math.floor(random() * nodes.length)]!;
    const key = `${source.id}>${target.id}`;
    if (source.id === target.id || seen.has(key) || seen.has(`${target.id}>${source.id}`)) continue;
    seen.add(key);
    const roll = random();
    edges.push({
      id: `e${edges.length}`,
      source: source.id,
      target: target.id,
      label: 'same owner name',
      strength: 'lead',
      decision: roll < 0.2 ? 'confirmed' : roll < 0.35 ? 'cut' : null,
      confidence: Math.round(random() * 100) / 100,
    });
  }
  return { nodes, edges, layout, altText: `A synthetic research graph of ${nodeCount} entities and ${edges.length} links.` };
}

/** The spec after expanding one deep node of `spec`: `count` new neighbours linked to it. */
export function expandedGraph(spec: GraphSpec, count: number, round = 0): { before: GraphSpec; after: GraphSpec; nodeId: string } {
  const deepest = [...spec.nodes].sort((a, b) => b.depth - a.depth)[round % spec.nodes.length]!;
  const before: GraphSpec = { ...spec, nodes: spec.nodes.map((node) => (node.id === deepest.id ? { ...node, expandable: true } : node)) };
  const random = seededRandom(100 + round);
  const added: GraphNode[] = Array.from({ length: count }, (_, index) => ({
    ...nodeFor(spec.nodes.length + index, chain[index % chain.length] ?? 'property', deepest.depth + 1, random),
    id: `x${round}-${index}`,
    root: false,
  }));
  const links: GraphEdge[] = added.map((node, index) => ({
    id: `xe${round}-${index}`,
    // Some new links point at the expanded node (another holding "owned by" it), most away from it.
    source: index % 4 === 3 ? node.id : deepest.id,
    target: index % 4 === 3 ? deepest.id : node.id,
    label: edgeWords[node.kind],
    strength: index % 3 === 2 ? 'lead' : 'fact',
    decision: null,
    confidence: index % 3 === 2 ? 0.6 : null,
  }));
  const after: GraphSpec = {
    ...before,
    nodes: [...before.nodes.map((node) => (node.id === deepest.id ? { ...node, expandable: false } : node)), ...added],
    edges: [...before.edges, ...links],
  };
  return { before, after, nodeId: deepest.id };
}

/**
 * DISTRICT OF COLUMBIA's portfolio graph as the Graph view draws it from the owner (depth 2: its
 * holdings and the parcels or units they sit on), every page of the sample's owner search merged:
 * closed in groups by street, and with its largest group opened.
 */
export async function dcPortfolioSpecs(): Promise<{ closed: GraphSpec; opened: GraphSpec; groups: number; entities: number; inGroup: number; groupingMs: number[] }> {
  const service = await startSecondService({ dialect: 'embedded', rateLimitPerMinute: 100_000 });
  try {
    const answers: GraphAnswer[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const reply = await service.call('/api/v2/property-searches', { json: ownerSearchBody('area_us_dc', 'DISTRICT OF COLUMBIA', cursor), idempotencyKey: `bench-dc-${page}` });
      if (reply.status !== 200) throw new Error(`the owner search for DISTRICT OF COLUMBIA answered ${reply.status}: ${reply.text.slice(0, 200)}`);
      answers.push({ kind: 'owner-search', name: 'DISTRICT OF COLUMBIA', envelope: reply.body });
      const body = reply.body as { data?: { next_cursor?: string | null }; meta?: { next_cursor?: string | null } };
      cursor = body.data?.next_cursor ?? body.meta?.next_cursor ?? undefined;
      if (!cursor) break;
    }
    const groupingMs: number[] = [];
    let closed = null as ReturnType<typeof drawnGraph> | null;
    // What the view computes before drawing: the model, its spec and the groups (measured apart from the drawing).
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      const { model } = buildGraph('owner:DISTRICT OF COLUMBIA', answers);
      const view = graphSpec(model);
      closed = drawnGraph(view, model, { by: 'street', open: new Set() });
      groupingMs.push(performance.now() - started);
    }
    const { model } = buildGraph('owner:DISTRICT OF COLUMBIA', answers);
    const view = graphSpec(model);
    const largest = [...closed!.groups].sort((a, b) => b.holdings - a.holdings)[0]!;
    const opened = drawnGraph(view, model, { by: 'street', open: new Set([largest.id]) });
    return { closed: closed!.spec, opened: opened.spec, groups: closed!.groups.length, entities: view.spec.nodes.length, inGroup: largest.holdings, groupingMs };
  } finally {
    await service.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The bench

export async function benchGraph({ smoke }: BenchOptions): Promise<LatencyFigures[]> {
  // A smoke pass draws each graph once (no warm-up) and expands once.
  const runs = (full: number) => (smoke ? 1 : full);
  const warmups = (full: number) => (smoke ? 0 : full);
  const outDir = await bundleGraphPage();
  const server = await serveFolder(outDir);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await openGraphPage(page, server.url);

    const firstDraw = async (spec: GraphSpec, count: number, warmup: number) => {
      const samples: number[] = [];
      for (let run = -warmup; run < count; run++) {
        const { ms } = await mountGraph(page, spec);
        if (run >= 0) samples.push(ms);
      }
      return samples;
    };
    const expansion = async (spec: GraphSpec, count: number) => {
      const samples: number[] = [];
      for (let run = -warmups(1); run < count; run++) {
        const { before, after } = expandedGraph(spec, 10, Math.max(0, run));
        await mountGraph(page, before);
        const { ms } = await updateGraph(page, after);
        if (run >= 0) samples.push(ms);
      }
      return samples;
    };

    const dc = await dcPortfolioSpecs();
    const portfolioDraw = await firstDraw(dc.closed, runs(10), warmups(2));
    const groupOpen: number[] = [];
    for (let run = -1; run < runs(10); run++) {
      await mountGraph(page, dc.closed);
      const { ms } = await updateGraph(page, dc.opened);
      if (run >= 0) groupOpen.push(ms);
    }
    const layered200 = syntheticGraph(200, 200, 'layered');
    const force200 = syntheticGraph(200, 200, 'force');
    const large = smoke ? 500 : 2000;
    const forceLarge = syntheticGraph(large, large, 'force');
    const n = large.toLocaleString('en-US');
    const figures = [
      latencyFigures('graph 200 nodes / 200 edges, layered (elk): spec → drawn', await firstDraw(layered200, runs(10), warmups(2)), { elapsedS: null, target: atMostMs(500) }),
      latencyFigures('graph 200 nodes / 200 edges, force (fcose): spec → drawn', await firstDraw(force200, runs(10), warmups(2)), { elapsedS: null, target: atMostMs(500) }),
      latencyFigures(`graph ${n} nodes / ${n} edges, force (fcose): spec → drawn`, await firstDraw(forceLarge, runs(5), warmups(1)), { elapsedS: null, target: atMostMs(3_000) }),
      latencyFigures('expand one node (+10) of 200, layered: spec → drawn', await expansion(layered200, runs(10)), { elapsedS: null, target: atMostMs(100) }),
      latencyFigures('expand one node (+10) of 200, force: spec → drawn', await expansion(force200, runs(10)), { elapsedS: null, target: atMostMs(100) }),
      latencyFigures(`expand one node (+10) of ${n}, force: spec → drawn`, await expansion(forceLarge, runs(5)), { elapsedS: null, target: atMostMs(100) }),
      latencyFigures(`DISTRICT OF COLUMBIA portfolio, depth 2 (${dc.entities} entities): answers → model → ${dc.groups} groups by street`, dc.groupingMs, { elapsedS: null, target: atMostMs(100) }),
      latencyFigures(`DISTRICT OF COLUMBIA portfolio, depth 2, in ${dc.groups} groups: spec → laid out and drawn`, portfolioDraw, { elapsedS: null, target: atMostMs(500) }),
      latencyFigures(`DISTRICT OF COLUMBIA portfolio: open one group (${dc.inGroup} holdings): spec → drawn`, groupOpen, { elapsedS: null, target: atMostMs(100) }),
    ];
    const violations = await cspViolations(page);
    if (violations.length > 0) throw new Error(`the graph page broke the Content-Security-Policy: ${violations.join('; ')}`);
    return figures;
  } finally {
    await browser.close();
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}
