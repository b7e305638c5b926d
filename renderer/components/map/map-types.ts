// The map's contract: what the Comparables view and the report's image give the one map component.
// The spec (shared/comparables/model.ts) is what is drawn; the props below add the interaction a
// screen has and a printed image does not.
import type { AreaLayer, ComparablesMapSpec, LonLat, MultiPolygonCoords, PolygonCoords } from '../../../shared/comparables/model.ts';
import type { ImageRequest, RenderImage } from '../image-render.ts';

export type MapTheme = 'light' | 'dark';

/** A feature of an area layer the appraiser picked as the market area. */
export interface PickedArea {
  layer: AreaLayer;
  featureId: string;
  label: string;
  multiPolygon: MultiPolygonCoords;
}

export interface PlatMapProps {
  spec: ComparablesMapSpec;
  theme: MapTheme;
  /** Clicking a point (or pressing Enter on the focused point from the list) calls this: choose or drop. */
  onTogglePoint?: (id: string) => void;
  /** The point the list or grid has focused/hovered: drawn highlighted and panned into view. */
  highlightedId?: string | null;
  /** When set, the map shows that layer's outlines and a click picks a feature as the market area. */
  pickLayer?: AreaLayer | null;
  onAreaPicked?: (area: PickedArea) => void;
  /** When true, the map is in polygon drawing mode (terra-draw); a finished polygon calls onPolygonDrawn. */
  drawing?: boolean;
  onPolygonDrawn?: (polygon: PolygonCoords) => void;
  /** Called once the map has drawn its first full frame (basemap + points): for tests and the bench. */
  onFirstDraw?: (elapsedMs: number) => void;
  className?: string;
}

export type MapImageRequest = ImageRequest<ComparablesMapSpec>;
export type RenderMapImage = RenderImage<ComparablesMapSpec>;

/** Map assets are served by the host next to the renderer, under this path (built by `npm run sample-data`). */
export const MAP_ASSET_BASE = '/map/';

export type { LonLat };
