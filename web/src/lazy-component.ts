import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * React.lazy for modules with named exports: `lazyComponent(() => import('./x').then((m) => m.X))`.
 * Each call site becomes its own chunk, so pages behind it stay out of the initial bundle.
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => ({ default: await load() }));
}
