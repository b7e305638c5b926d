// Serves the built renderer from one folder, for both the browser host and Electron's app:// protocol.
// Paths are resolved inside the root and anything escaping it is refused.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.geojson': 'application/geo+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.pbf': 'application/x-protobuf',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticFile {
  body: Buffer;
  contentType: string;
}

/** The file for a URL path under `root`, `index.html` for `/`, or null when absent or outside root. */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const resolvedRoot = path.resolve(root);
  const filePath = path.resolve(resolvedRoot, relative);
  if (filePath !== resolvedRoot && !filePath.startsWith(resolvedRoot + path.sep)) return null;
  try {
    const info = await stat(filePath);
    if (!info.isFile()) return null;
    return {
      body: await readFile(filePath),
      contentType: contentTypes[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream',
    };
  } catch {
    return null;
  }
}
