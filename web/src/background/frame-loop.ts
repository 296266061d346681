import { shouldDrawFrame } from './particle-field';

const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

export function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(REDUCED_MOTION_QUERY).matches;
}

/**
 * Calls `onFrame` with the time since the last drawn frame, at most at the particle frame limit.
 * A background tab pauses frames: the elapsed time is capped at 100 ms so nothing jumps on return.
 * Returns the function that stops the loop.
 */
export function startFrameLoop(onFrame: (elapsedMs: number) => void): () => void {
  let frame = 0;
  let last = performance.now();
  const tick = (time: number): void => {
    frame = requestAnimationFrame(tick);
    const elapsed = time - last;
    if (!shouldDrawFrame(elapsed)) return;
    last = time;
    onFrame(Math.min(elapsed, 100));
  };
  frame = requestAnimationFrame(tick);
  return () => cancelAnimationFrame(frame);
}
