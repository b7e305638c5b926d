// The comparables map in headless Chromium (Debian's build; software WebGL, SwiftShader): a page
// that mounts only PlatMap is bundled with Vite, served with the offline map layers and Plat's real
// Content-Security-Policy (so the maplibre worker must load as a same-origin file), and given a spec
// of 5,000 sales scattered over central DC. Timed: from React's mount to onFirstDraw (the first idle
// frame with the basemap and the sales loaded), each on a fresh page. Target: ≤ 1.5 s.
// The page is exported for scripts that want to look at the map (buildMapPage, serveMapPage).
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readStaticFile } from '../../electron/web/static-files.ts';
import { securityHeaders } from '../../electron/web/content-security.ts';
import { buildBenchPage } from './bench-page.ts';
import type { ComparablesMapSpec, MapPointRole } from '../../shared/comparables/model.ts';
import { launchChromium } from './chromium.ts';
import { atMostMs, latencyFigures, type BenchOptions, type LatencyFigures } from './measure.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RUNS = 8;
const POINTS = 5_000;
/** The report's picture: its size (renderer/features/report/map-image.ts) and a full page of sales. */
const IMAGE = { widthPx: 1440, heightPx: 960, sales: 100, radiusMiles: 0.5 } as const;

/**
 * The page's entry: PlatMap and renderMapImage behind `window.platMap`. Written out at build time,
 * inside node_modules/.cache so its imports resolve against Plat's node_modules.
 */
const entrySource = (repo: string) => `
import { createRoot } from 'react-dom/client';
import '${repo}/renderer/design/tokens.css';
import '${repo}/renderer/design/base.css';
import { PlatMap } from '${repo}/renderer/components/map/PlatMap.tsx';
import { renderMapImage } from '${repo}/renderer/components/map/render-map-image.ts';

const host = document.getElementById('root');
let root = null;
let props = null;
const render = () => root.render(<PlatMap {...props} />);
// What the map called back, for scripts that click and draw on it.
const events = [];
const callbacks = {
  onTogglePoint: (id) => events.push({ kind: 'toggle', id }),
  onAreaPicked: (area) => events.push({ kind: 'area', area }),
  onPolygonDrawn: (polygon) => events.push({ kind: 'polygon', polygon }),
};
window.platMap = {
  events,
  mount(spec, theme, extra = {}) {
    return new Promise((resolve, reject) => {
      root?.unmount();
      root = createRoot(host);
      const started = performance.now();
      const timer = setTimeout(() => reject(new Error('no first draw after 30 s')), 30000);
      props = { spec, theme, ...callbacks, ...extra, onFirstDraw: () => { clearTimeout(timer); resolve(performance.now() - started); } };
      render();
    });
  },
  update(extra) {
    props = { ...props, ...extra };
    render();
  },
  image(spec, widthPx, heightPx) {
    return renderMapImage({ spec, widthPx, heightPx });
  },
};
`;

/** Bundles the page into a folder of its own; returns the folder to serve. */
export function buildMapPage(): Promise<string> {
  // The map's box: a file, since the CSP allows no inline style.
  return buildBenchPage({ name: 'plat-map-page', title: 'Plat map', entry: entrySource, css: '#root.bench-root { width: 1000px; height: 700px; }\n', rootClass: 'bench-root' });
}

/** Serves the page and, under /map/, the built map layers, with Plat's security headers. */
export async function serveMapPage(pageDir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const mapDir = path.join(root, 'assets/map');
  const server = createServer((req, res) => {
    const urlPath = new URL(req.url ?? '/', 'http://localhost').pathname;
    const file = urlPath.startsWith('/map/') ? readStaticFile(mapDir, urlPath.slice('/map'.length)) : readStaticFile(pageDir, urlPath);
    void file.then((found) => {
      if (!found) {
        res.writeHead(404, securityHeaders).end();
        return;
      }
      res.writeHead(200, { ...securityHeaders, 'Content-Type': found.contentType }).end(found.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A deterministic spread of sales around 1708 21ST ST NW within the radius, most of them plain candidates. */
export function scatteredSpec(count: number, radiusMiles = 2): ComparablesMapSpec {
  let seed = 20170101;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const subject: [number, number] = [-77.047037, 38.912976];
  const points: ComparablesMapSpec['points'] = [];
  for (let i = 0; i < count; i++) {
    const role: MapPointRole = i < 3 ? 'chosen' : i % 17 === 0 ? 'flagged' : i % 23 === 0 ? 'not_used' : 'candidate';
    // Within the radius around the subject (degrees of longitude are shorter at DC's latitude).
    const angle = random() * 2 * Math.PI;
    const reach = Math.sqrt(random()) * radiusMiles;
    const lonLat: [number, number] = [subject[0] + (reach / 53.9) * Math.cos(angle), subject[1] + (reach / 69.0) * Math.sin(angle)];
    points.push({
      id: `sale-${i}`,
      lonLat: [Math.round(lonLat[0] * 1e6) / 1e6, Math.round(lonLat[1] * 1e6) / 1e6],
      role,
      label: `${1000 + i} EXAMPLE ST NW`,
      number: role === 'chosen' ? i + 1 : null,
      tag: role === 'chosen' ? String(i + 1) : null,
      approximate: true,
      details: [`Sold for $${(600 + (i % 900)).toLocaleString('en-US')},000`, 'Sold 2016-06-01', '$612 per sq ft', 'Source: DC OTR · 2017-02-05'],
    });
  }
  return {
    subject: { lonLat: subject, label: '1708 21ST ST NW', approximate: true, tag: 'S' },
    points,
    area: { kind: 'radius', radiusMiles },
    radiusMiles,
    altText: `Map of ${count} sales around 1708 21ST ST NW.`,
  };
}

export async function benchMap({ smoke }: BenchOptions): Promise<LatencyFigures[]> {
  // A smoke pass draws once of each, the first counted (no warm-up).
  const runs = smoke ? 0 : RUNS;
  const images = smoke ? 0 : 4;
  const pageDir = await buildMapPage();
  const server = await serveMapPage(pageDir);
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const spec = scatteredSpec(POINTS);
    const firstDraw: number[] = [];
    const imageMs: number[] = [];
    for (let run = 0; run <= runs; run++) {
      await page.goto(server.url);
      await page.waitForFunction(() => 'platMap' in window);
      const ms = await page.evaluate((s) => (window as unknown as { platMap: { mount: (spec: unknown, theme: string) => Promise<number> } }).platMap.mount(s, 'light'), spec);
      // The first run warms the disk cache and Chromium's shader cache; it is not counted.
      if (run > 0 || smoke) firstDraw.push(ms);
    }
    const imageSpec = scatteredSpec(IMAGE.sales, IMAGE.radiusMiles);
    for (let run = 0; run <= images; run++) {
      const ms = await page.evaluate(async ([s, w, h]) => {
        const started = performance.now();
        await (window as unknown as { platMap: { image: (spec: unknown, w: number, h: number) => Promise<unknown> } }).platMap.image(s, w, h);
        return performance.now() - started;
      }, [imageSpec, IMAGE.widthPx, IMAGE.heightPx] as const);
      if (run > 0 || smoke) imageMs.push(ms);
    }
    if (errors.length > 0) console.log(`page errors: ${[...new Set(errors)].join(' | ')}`);
    return [
      latencyFigures(`map first draw, ${POINTS.toLocaleString('en-US')} sales on the basemap (mount → onFirstDraw)`, firstDraw, { elapsedS: null, target: atMostMs(1_500) }),
      latencyFigures(`the report's map image, ${IMAGE.widthPx} × ${IMAGE.heightPx} px, ${IMAGE.sales} sales (renderMapImage)`, imageMs, { elapsedS: null }),
    ];
  } finally {
    await browser.close();
    await server.close();
    rmSync(path.dirname(pageDir), { recursive: true, force: true });
  }
}
