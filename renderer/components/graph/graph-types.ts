// The graph component's contract: what the Graph view and the report's image give it.
import type { GraphSpec } from '../../../shared/graph/graph-spec.ts';
import type { ImageRequest, RenderImage } from '../image-render.ts';

export type GraphTheme = 'light' | 'dark';

export interface EntityGraphProps {
  spec: GraphSpec;
  theme: GraphTheme;
  selectedId?: string | null;
  onSelectNode?: (id: string) => void;
  onSelectEdge?: (id: string) => void;
  /** Enter on a node, or its expand affordance: the view prices the expansion and runs it. */
  onExpandNode?: (id: string) => void;
  /** Called after the layout has run and the first frame is drawn: for tests and the bench. */
  onLayoutDone?: (elapsedMs: number) => void;
  className?: string;
}

export type GraphImageRequest = ImageRequest<GraphSpec>;
export type RenderGraphImage = RenderImage<GraphSpec>;
