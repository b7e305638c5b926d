// Test support (not part of the app): a stand-in for the report's offscreen image renderers (the
// map's and the graph's), so a test can say whether an image draws, fails, never answers, or
// answers when the test releases it.
export interface FakeImageRenderer {
  mode: 'draw' | 'fail' | 'hang' | 'manual';
  requests: unknown[];
  release: null | (() => void);
}

/** Back to drawing at once, with nothing asked yet. */
export function resetImageRenderer(renderer: FakeImageRenderer): void {
  renderer.mode = 'draw';
  renderer.requests.length = 0;
  renderer.release = null;
}

/** The stand-in's answer to one request, as its mode says; `failure` is the message of a failed drawing. */
export function fakeImage(renderer: FakeImageRenderer, request: { widthPx: number; heightPx: number }, failure: string): Promise<{ dataUrl: string; widthPx: number; heightPx: number }> {
  renderer.requests.push(request);
  const image = { dataUrl: 'data:image/png;base64,iVBORw0KGgo=', widthPx: request.widthPx, heightPx: request.heightPx };
  if (renderer.mode === 'fail') return Promise.reject(new Error(failure));
  if (renderer.mode === 'hang') return new Promise(() => undefined);
  if (renderer.mode === 'manual') return new Promise((resolve) => (renderer.release = () => resolve(image)));
  return Promise.resolve(image);
}
