// The one map: the subject, the sales by role, the market area and the radius searched, on an
// offline basemap of DC. Hover (or the list's focus) shows a sale's address, price, date, $/sq ft and
// source; a click chooses or drops it. While `pickLayer` is set a click picks a ward, ZIP, cluster or
// assessment neighbourhood as the market area; while `drawing`, the appraiser draws one (terra-draw).
// The spec (shared/comparables/map-spec.ts) says everything in words too: the alt text and the legend.
import { useEffect, useEffectEvent, useId, useMemo, useRef, useState } from 'react';
import type { Map as MapLibreMap, MapMouseEvent, Popup, GeoJSONSource, PointLike, PositionAnchor } from 'maplibre-gl';
import type { Geometry } from 'geojson';
import { TerraDraw, TerraDrawPolygonMode } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { areaLayerLabels, type AreaLayer, type MultiPolygonCoords, type PolygonCoords } from '../../../shared/comparables/model.ts';
import { basemapCoverageOf } from '../../../shared/comparables/map-coverage.ts';
import { maplibregl } from './maplibre.ts';
import type { MapTheme, PlatMapProps } from './map-types.ts';
import { loadMapLayer, loadMapManifest, mapAssetBase } from './map-assets.ts';
import { mapAttribution } from './map-manifest.ts';
import {
  areaIdentity,
  areaLayerFiles,
  areaLayerIdProperty,
  boundsOf,
  extentKey,
  fanOffsets,
  legendRows,
  mapData,
  pickedArea,
  pointFeature,
  pointHoverLines,
  subjectHoverLines,
  type Bounds,
  type MapPoint,
} from './map-data.ts';
import { basemapPalettes, LAYER, mapStyle, pickLayers, pickSource, SOURCE } from './map-style.ts';
import { applyTheme, installIcons, setSourceData, setSpecData } from './map-runtime.ts';
import { iconCanvas, iconPalette, legendIconId, ROLE_COLOURS } from './map-icons.ts';
import './map.css';

/** Where the map opens when the spec has nothing to place: central DC. */
const DC_BOUNDS: Bounds = [
  [-77.07, 38.88],
  [-77.0, 38.93],
];
/** The basemap covers DC and its neighbours; the map stays near it. */
const MAX_BOUNDS: Bounds = [
  [-77.65, 38.6],
  [-76.55, 39.25],
];
const FIT = { padding: 48, maxZoom: 17 } as const;

const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

function popupContent(lines: string[]): HTMLElement {
  const box = document.createElement('div');
  box.className = 'plat-map__popup-body';
  lines.forEach((line, index) => {
    const element = document.createElement(index === 0 ? 'strong' : 'div');
    element.textContent = line;
    if (/approximate location/i.test(line)) element.className = 'plat-map__popup-approximate';
    box.append(element);
  });
  return box;
}

/** A point feature's position (a cluster's is its centre). */
const pointOf = (geometry: Geometry): [number, number] => (geometry.type === 'Point' ? [geometry.coordinates[0] ?? 0, geometry.coordinates[1] ?? 0] : [0, 0]);

type Offset = [number, number];

/** The popup's gap from the symbol, from whichever side maplibre anchors it, plus the symbol's own fan-out offset. */
function popupOffset([dx, dy]: Offset): Record<PositionAnchor, Offset> {
  const gap = 16;
  const diagonal = Math.round(gap * 0.7);
  return {
    center: [dx, dy],
    top: [dx, dy + gap],
    bottom: [dx, dy - gap],
    left: [dx + gap, dy],
    right: [dx - gap, dy],
    'top-left': [dx + diagonal, dy + diagonal],
    'top-right': [dx - diagonal, dy + diagonal],
    'bottom-left': [dx + diagonal, dy - diagonal],
    'bottom-right': [dx - diagonal, dy - diagonal],
  };
}

/** The layers of `ids` the map has now (the cluster and pick layers come and go). */
const present = (map: MapLibreMap, ids: readonly string[]) => ids.filter((id) => map.getLayer(id) !== undefined);

/** A terra-draw polygon's coordinates as the workfile keeps them: six decimals (about 10 cm). */
const roundPolygon = (coordinates: number[][][]): PolygonCoords =>
  coordinates.map((ring) => ring.map(([lon = 0, lat = 0]) => [Math.round(lon * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6] as [number, number]));

export function PlatMap(props: PlatMapProps) {
  const { spec, theme, highlightedId = null, pickLayer = null, drawing = false, className } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  /** Where the sample's basemap is drawn (from its manifest), for the "no basemap here" note. */
  const [coverage, setCoverage] = useState<MultiPolygonCoords | null>(null);
  /** The street names the map shows now, for the words beside it (a reader who cannot see the map). */
  const [streetNames, setStreetNames] = useState<string[]>([]);
  const descriptionId = useId();
  const iconsRef = useRef<Set<string>>(new Set());
  const popupRef = useRef<Popup | null>(null);
  const popupKeyRef = useRef<string | null>(null);
  const fittedRef = useRef<string | null>(null);
  /** The map is fitting itself to new data: a focused sale is then left to the fit, which shows every point. */
  const fittingRef = useRef(false);
  /** The spec whose data the sources hold (the style is made with the first one). */
  const drawnSpecRef = useRef<PlatMapProps['spec'] | null>(null);
  const drawnHighlightRef = useRef<string | null>(null);
  const themeRef = useRef<MapTheme>(theme);
  const pickRef = useRef<AreaLayer | null>(null);
  const hoveredAreaRef = useRef<string | number | null>(null);
  const drawingRef = useRef(false);

  const report = (message: string) => setProblems((list) => (list.includes(message) ? list : [...list, message]));

  // Events read the latest props through these, so the map's listeners are set up once.
  const initial = useEffectEvent(() => ({ spec, theme, pickLayer }));
  const firstDraw = useEffectEvent((ms: number) => props.onFirstDraw?.(ms));
  const offsets = useMemo(() => fanOffsets(spec), [spec]);
  /**
   * One popup for hover and focus. `key` names what it shows: the same thing hovered again only moves
   * it (a pointer over an area), so its text is not rebuilt on every mouse move.
   */
  const showPopup = (target: MapLibreMap, key: string, lonLat: [number, number], lines: string[], symbolOffset: Offset = [0, 0]) => {
    popupRef.current ??= new maplibregl.Popup({ closeButton: false, closeOnClick: false, focusAfterOpen: false, className: 'plat-map__popup', maxWidth: '300px' });
    const popup = popupRef.current;
    popup.setLngLat(lonLat);
    if (popupKeyRef.current !== key || !popup.isOpen()) {
      popupKeyRef.current = key;
      popup.setOffset(popupOffset(symbolOffset)).setDOMContent(popupContent(lines)).addTo(target);
    }
  };
  const hidePopup = () => {
    popupKeyRef.current = null;
    popupRef.current?.remove();
  };
  const showSale = (target: MapLibreMap, point: MapPoint) => showPopup(target, `sale:${point.id}`, point.lonLat, pointHoverLines(point), offsets.get(point.id));
  /** The focused sale's popup, or none: what the map shows when the pointer is not over a sale. */
  const restFocus = useEffectEvent((target: MapLibreMap) => {
    const point = highlightedId === null ? undefined : spec.points.find((p) => p.id === highlightedId);
    if (point) showSale(target, point);
    else hidePopup();
  });

  const hoverAt = useEffectEvent((target: MapLibreMap, at: PointLike) => {
    if (drawingRef.current) return;
    if (pickLayer) {
      const [area] = target.queryRenderedFeatures(at, { layers: present(target, [LAYER.pickFill]) });
      const id = area?.id ?? null;
      if (id !== hoveredAreaRef.current) {
        if (hoveredAreaRef.current !== null) target.setFeatureState({ source: SOURCE.pick, id: hoveredAreaRef.current }, { hover: false });
        if (id !== null) target.setFeatureState({ source: SOURCE.pick, id }, { hover: true });
        hoveredAreaRef.current = id;
      }
      const identity = area ? areaIdentity(pickLayer, area.properties) : null;
      target.getCanvas().style.cursor = identity ? 'pointer' : '';
      if (identity) showPopup(target, `area:${identity.featureId}`, target.unproject(at).toArray() as [number, number], [`${areaLayerLabels[pickLayer]} ${identity.label}`, 'Click to use it as the market area']);
      else restFocus(target);
      return;
    }
    const [hit] = target.queryRenderedFeatures(at, { layers: present(target, [LAYER.subject, LAYER.sales, LAYER.others, LAYER.clusters]) });
    target.getCanvas().style.cursor = hit ? 'pointer' : '';
    if (!hit) return restFocus(target);
    if (hit.layer.id === LAYER.subject && spec.subject) return showPopup(target, 'subject', spec.subject.lonLat, subjectHoverLines(spec.subject));
    if (hit.layer.id === LAYER.clusters) {
      const count = Number(hit.properties['point_count']);
      return showPopup(target, `cluster:${String(hit.properties['cluster_id'])}`, pointOf(hit.geometry), [`${count} sales close together`, 'Click to zoom in']);
    }
    const point = spec.points.find((p) => p.id === hit.properties['id']);
    if (point) showSale(target, point);
  });

  const clickAt = useEffectEvent(async (target: MapLibreMap, at: PointLike) => {
    if (drawingRef.current) return;
    if (pickLayer) {
      const [area] = target.queryRenderedFeatures(at, { layers: present(target, [LAYER.pickFill]) });
      if (!area || area.id === undefined) return;
      const idProperty = areaLayerIdProperty[pickLayer];
      try {
        // The drawn tiles are clipped and simplified: the workfile gets the layer's own outline.
        const layer = await loadMapLayer(areaLayerFiles[pickLayer]);
        const feature = layer.features.find((f) => String(f.properties?.[idProperty]) === String(area.id));
        const picked = feature ? pickedArea(pickLayer, { properties: feature.properties, geometry: feature.geometry }) : null;
        if (picked) props.onAreaPicked?.(picked);
        else report(`The outline of ${String(area.id)} could not be found in the map's ${areaLayerFiles[pickLayer].replace(/_/g, ' ')} layer.`);
      } catch (error) {
        report((error as Error).message);
      }
      return;
    }
    const [hit] = target.queryRenderedFeatures(at, { layers: present(target, [LAYER.sales, LAYER.others, LAYER.clusters]) });
    if (!hit) return;
    if (hit.layer.id === LAYER.clusters) {
      const source = target.getSource(SOURCE.others) as GeoJSONSource | undefined;
      const zoom = await source?.getClusterExpansionZoom(Number(hit.properties['cluster_id']));
      if (zoom !== undefined) target.easeTo({ center: pointOf(hit.geometry), zoom, duration: reducedMotion() ? 0 : 500 });
      return;
    }
    const id = hit.properties['id'];
    if (typeof id === 'string') props.onTogglePoint?.(id);
  });

  // The map itself: made once, removed with the component.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const started = performance.now();
    const start = initial();
    let instance: MapLibreMap;
    try {
      instance = new maplibregl.Map({
        container,
        style: mapStyle({ theme: start.theme, assetBase: mapAssetBase(), data: mapData(start.spec), cluster: true, pickLayer: start.pickLayer }),
        bounds: boundsOf(start.spec) ?? DC_BOUNDS,
        fitBoundsOptions: FIT,
        maxBounds: MAX_BOUNDS,
        minZoom: 9,
        maxZoom: 18,
        attributionControl: false,
        dragRotate: false,
        pitchWithRotate: false,
        touchPitch: false,
        fadeDuration: 0,
        // The canvas is what keyboard focus lands on: say what it is and how to move it.
        locale: { 'Map.Title': 'Comparable sales map: arrow keys pan, plus and minus zoom' },
      });
    } catch (error) {
      // No WebGL (a locked-down machine or a remote desktop): the list and the grid still say everything.
      queueMicrotask(() => report(`This computer could not draw the map (${(error as Error).message}). Every sale is still listed beside it.`));
      return;
    }
    themeRef.current = start.theme;
    pickRef.current = start.pickLayer;
    fittedRef.current = extentKey(start.spec);
    drawnSpecRef.current = start.spec;
    drawnHighlightRef.current = null;
    iconsRef.current = installIcons(instance, () => themeRef.current);
    instance.touchZoomRotate.disableRotation();
    instance.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
    instance.addControl(new maplibregl.ScaleControl({ unit: 'imperial', maxWidth: 120 }), 'bottom-right');
    instance.on('error', (event) => report(`Part of the map could not be drawn: ${event.error?.message ?? 'unknown error'}`));
    instance.on('mousemove', (event: MapMouseEvent) => hoverAt(instance, event.point));
    instance.on('mouseout', () => restFocus(instance));
    instance.on('click', (event: MapMouseEvent) => void clickAt(instance, event.point));
    // The view as it is now, on the container: the canvas has no element per sale, so a test projects
    // a sale's position to pixels from it (Web Mercator, no rotation: the map never rotates).
    const keepView = () => {
      const bounds = instance.getBounds();
      container.dataset.view = JSON.stringify({
        west: bounds.getWest(),
        south: bounds.getSouth(),
        east: bounds.getEast(),
        north: bounds.getNorth(),
        width: container.clientWidth,
        height: container.clientHeight,
        zoom: instance.getZoom(),
      });
    };
    instance.on('load', keepView);
    instance.on('moveend', keepView);
    // The names drawn, once the map has settled: each street once, in order.
    const keepStreetNames = () => {
      const drawn = instance.queryRenderedFeatures({ layers: present(instance, [LAYER.streetLabels, LAYER.roadLabels]) });
      const names = [...new Set(drawn.map((feature) => feature.properties['name']).filter((name): name is string => typeof name === 'string'))].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
      setStreetNames((current) => (current.join('\n') === names.join('\n') ? current : names));
    };
    instance.on('idle', keepStreetNames);
    instance.once('load', () => {
      setMap(instance);
      instance.once('idle', () => firstDraw(performance.now() - started));
    });
    let cancelled = false;
    loadMapManifest().then(
      (manifest) => {
        if (cancelled) return;
        setCoverage(manifest.basemapCoverage.multiPolygon);
        instance.addControl(new maplibregl.AttributionControl({ compact: false, customAttribution: `Map data: ${mapAttribution(manifest)}` }), 'bottom-right');
      },
      (error: Error) => !cancelled && report(error.message),
    );
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(container);
    return () => {
      cancelled = true;
      resize.disconnect();
      hidePopup();
      popupRef.current = null;
      instance.remove();
      setMap(null);
    };
  }, []);

  // The spec's data; the view fits it when the subject, area or radius changes (not on every choice).
  useEffect(() => {
    if (!map || drawnSpecRef.current === spec) return;
    drawnSpecRef.current = spec;
    setSpecData(map, mapData(spec), true);
    const key = extentKey(spec);
    if (key !== fittedRef.current) {
      fittedRef.current = key;
      const bounds = boundsOf(spec);
      if (bounds) {
        // A row hovered meanwhile would ease to its sale and stop the fit half way, at the zoom of a single point.
        fittingRef.current = true;
        map.once('moveend', () => {
          fittingRef.current = false;
        });
        map.fitBounds(bounds, { ...FIT, duration: reducedMotion() ? 0 : 600 });
      }
    }
  }, [map, spec]);

  // The focused sale (from the list or the grid): ringed, brought into view, its popup shown.
  const showFocus = useEffectEvent((target: MapLibreMap) => {
    const point = highlightedId === null ? undefined : spec.points.find((p) => p.id === highlightedId);
    if (point === undefined && drawnHighlightRef.current === null) return;
    drawnHighlightRef.current = point?.id ?? null;
    setSourceData(target, SOURCE.highlight, { type: 'FeatureCollection', features: point ? [pointFeature(point, offsets.get(point.id))] : [] });
    if (point) {
      if (!fittingRef.current && !target.getBounds().contains(point.lonLat)) target.easeTo({ center: point.lonLat, duration: reducedMotion() ? 0 : 400 });
      showSale(target, point);
    } else {
      hidePopup();
    }
  });
  useEffect(() => {
    if (map) showFocus(map);
  }, [map, spec, highlightedId]);

  // Theme: repaint in place, so the view, the data and the focus stay.
  useEffect(() => {
    if (!map || themeRef.current === theme) return;
    themeRef.current = theme;
    applyTheme(map, { theme, cluster: true, pickLayer: pickRef.current }, iconsRef.current);
  }, [map, theme]);

  // The area layer being picked from: its outlines while picking, nothing otherwise.
  useEffect(() => {
    if (!map || pickRef.current === pickLayer) return;
    for (const id of [LAYER.pickLine, LAYER.pickFill]) if (map.getLayer(id)) map.removeLayer(id);
    if (map.getSource(SOURCE.pick)) map.removeSource(SOURCE.pick);
    hoveredAreaRef.current = null;
    pickRef.current = pickLayer;
    if (pickLayer) {
      map.addSource(SOURCE.pick, pickSource(pickLayer, mapAssetBase()));
      for (const layer of pickLayers(basemapPalettes[themeRef.current])) map.addLayer(layer, LAYER.areaFill);
    }
    map.getCanvas().style.cursor = '';
  }, [map, pickLayer]);

  const polygonDrawn = useEffectEvent((polygon: PolygonCoords) => props.onPolygonDrawn?.(polygon));

  // Drawing a market area: terra-draw's polygon mode until one polygon is finished.
  useEffect(() => {
    if (!map || !drawing) return;
    drawingRef.current = true;
    hidePopup();
    const accent = ROLE_COLOURS.area as `#${string}`;
    const draw = new TerraDraw({
      adapter: new TerraDrawMapLibreGLAdapter({ map }),
      modes: [
        new TerraDrawPolygonMode({
          // An outline that crosses itself is finished all the same: refusing to close it said nothing
          // of why. The search then names the sides that cross, where, and how to draw it again.
          styles: { fillColor: accent, fillOpacity: 0.15, outlineColor: accent, outlineWidth: 2.5, closingPointColor: '#ffffff', closingPointOutlineColor: accent, closingPointWidth: 6, closingPointOutlineWidth: 2 },
        }),
      ],
    });
    draw.start();
    draw.setMode('polygon');
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      drawingRef.current = false;
      draw.stop();
    };
    draw.on('finish', (id) => {
      const feature = draw.getSnapshotFeature(id);
      if (feature?.geometry.type !== 'Polygon') return;
      polygonDrawn(roundPolygon(feature.geometry.coordinates));
      // Out of drawing mode after one polygon, whether or not the parent turns `drawing` off.
      setTimeout(stop, 0);
    });
    return stop;
  }, [map, drawing]);

  const legend = useMemo(() => legendRows(spec, { clustered: true }), [spec]);
  const legendIcons = useMemo(() => {
    const palette = iconPalette(theme);
    const ratio = window.devicePixelRatio || 1;
    return Object.fromEntries(legend.map((row) => [row.key, iconCanvas(legendIconId[row.key] ?? '', palette, ratio)?.toDataURL('image/png') ?? null]));
  }, [legend, theme]);
  // On a narrow window the open legend would cover a third of the map: it starts folded there.
  const [legendOpenAtStart] = useState(() => typeof window === 'undefined' || window.innerWidth >= 1600);
  const coverageNote = useMemo(() => (coverage ? basemapCoverageOf(spec, coverage).note : null), [spec, coverage]);
  const description = [
    ...legend.map((row) => `${row.label}${row.count !== null ? `: ${row.count}` : ''}.`),
    ...(coverageNote ? [`${coverageNote}.`] : []),
    ...(streetNames.length > 0 ? [`Streets named on the map: ${streetNames.join(', ')}.`] : []),
    'Arrow keys pan the map; plus and minus zoom. Every sale on the map is also in the list.',
  ].join(' ');

  return (
    <div className={`plat-map plat-map--${theme}${drawing ? ' plat-map--drawing' : ''}${className ? ` ${className}` : ''}`}>
      <div ref={containerRef} className="plat-map__canvas" role="application" aria-label={spec.altText} aria-describedby={descriptionId} />
      <p id={descriptionId} className="visually-hidden">
        {description}
      </p>
      {/* Top left: what the map lacks (it stays in view), then the legend. */}
      <div className="plat-map__top-left">
        {coverageNote && (
          <p className="plat-map__note" data-testid="map-coverage-note">
            {coverageNote}
          </p>
        )}
        <details className="plat-map__legend" open={legendOpenAtStart}>
          <summary>Legend</summary>
          <ul>
            {legend.map((row) => (
              <li key={row.key}>
                {legendIcons[row.key] ? <img src={legendIcons[row.key] ?? undefined} alt="" width={20} height={20} /> : <span className="plat-map__legend-blank" />}
                <span className="plat-map__legend-label">{row.label}</span>
                {row.count !== null && <span className="plat-map__legend-count">{row.count}</span>}
              </li>
            ))}
          </ul>
        </details>
      </div>
      {drawing && <p className="plat-map__hint" role="status">Click to place corners; click the first corner (or press Enter) to finish; Escape starts over.</p>}
      {pickLayer && !drawing && <p className="plat-map__hint" role="status">Click an area on the map to use it as the market area.</p>}
      {problems.length > 0 && (
        <div className="plat-map__problem" role="alert">
          {problems.map((problem) => (
            <p key={problem}>{problem}</p>
          ))}
        </div>
      )}
    </div>
  );
}
