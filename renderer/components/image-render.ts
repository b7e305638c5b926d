// What the graph and the map share for the report: an offscreen render of their spec, as a PNG data
// URL of the size asked (light theme: it is printed).

export interface ImageRequest<Spec> {
  spec: Spec;
  widthPx: number;
  heightPx: number;
}

export type RenderImage<Spec> = (request: ImageRequest<Spec>) => Promise<{ dataUrl: string; widthPx: number; heightPx: number }>;
