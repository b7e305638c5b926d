// A view whose code is loaded when it is first shown (or asked for ahead by `preload`), so the first
// screen parses and runs only its own code. Once loaded it renders at once, never suspending again,
// and it is the same component before and after, so nothing under it remounts. It suspends through
// `use`, not React.lazy, for that: React.lazy starts its own load at its first render, so even a view
// whose code a preload already fetched suspends once there, flashing the loading state.
import { use, type ComponentType, type ReactElement } from 'react';

export interface LazyView<P extends object> {
  (props: P): ReactElement;
  /**
   * Starts loading the view's code (once; again after a failed load). Settles when the load does,
   * never rejecting: a failure shows where the view renders.
   */
  preload(): Promise<void>;
}

export function lazyView<P extends object>(load: () => Promise<ComponentType<P>>): LazyView<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  let failed = false;
  const start = (): Promise<ComponentType<P>> => {
    if (loading === null || failed) {
      failed = false;
      loading = load().then(
        (component) => (loaded = component),
        (error: unknown) => {
          // Kept rejected, so the view's render throws it to the boundary instead of loading in a loop.
          failed = true;
          throw error;
        },
      );
    }
    return loading;
  };
  function LazyLoadedView(props: P) {
    const Component = loaded ?? use(loading ?? start());
    return <Component {...props} />;
  }
  return Object.assign(LazyLoadedView, {
    preload: () =>
      loaded === null
        ? start().then(
            () => undefined,
            () => undefined,
          )
        : Promise.resolve(),
  });
}

/** Whether `component` is a lazy view, whose code can be loaded ahead. */
export function isLazyView(component: unknown): component is LazyView<object> {
  return typeof component === 'function' && typeof (component as Partial<LazyView<object>>).preload === 'function';
}

/**
 * Loads the code of `components` (those that are lazy views) once the first screen has settled: a
 * moment after start and when the page is next idle, so it never competes with that screen's own work.
 * Returns the cancel.
 */
export function preloadWhenSettled(components: readonly unknown[], delayMs = 1000): () => void {
  const views = components.filter(isLazyView);
  if (views.length === 0) return () => undefined;
  let idle: number | null = null;
  const preload = () => {
    for (const view of views) void view.preload();
  };
  const timer = window.setTimeout(() => {
    if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(preload);
    else preload();
  }, delayMs);
  return () => {
    window.clearTimeout(timer);
    if (idle !== null) window.cancelIdleCallback(idle);
  };
}
