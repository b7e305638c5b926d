// maplibre-gl, set up once for Plat's CSP: its worker is a same-origin file Vite emits beside the
// bundle (script-src 'self', worker-src 'self' blob:), never a blob built from inline code, and its
// stylesheet is a file too (style-src 'self').
import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';

maplibregl.setWorkerUrl(workerUrl);
// Start the map's worker when the map code loads, not when the first map mounts: a new worker has
// half a megabyte of script to compile before it can read the basemap, and kept alive it serves the
// Comparables view and the report's map image alike (maplibre keeps prewarmed workers until the page goes).
maplibregl.prewarm();

export { maplibregl };
