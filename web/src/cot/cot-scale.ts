// Pure scaling for the COT charts (inline SVG): value domains, linear scales, tick values and paths.

export type Domain = readonly [number, number];

/** Smallest and largest finite value; null when there is none. */
export function valueExtent(values: Iterable<number | null | undefined>): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    if (value === null || value === undefined || !Number.isFinite(value)) continue;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return min === Infinity ? null : { min, max };
}

/**
 * The domain a chart draws: the values' extent (with zero when `includeZero`), widened so a flat
 * series sits in the middle instead of collapsing to a zero-height scale. Always lo < hi.
 */
export function chartDomain(values: Iterable<number | null | undefined>, options: { includeZero?: boolean } = {}): Domain {
  const extent = valueExtent(values);
  if (!extent) return [0, 1];
  let { min, max } = extent;
  if (options.includeZero) {
    min = Math.min(min, 0);
    max = Math.max(max, 0);
  }
  if (min === max) {
    // A flat series: ±10% of its magnitude, or ±1 around zero.
    const pad = min === 0 ? 1 : Math.abs(min) * 0.1;
    return [min - pad, max + pad];
  }
  return [min, max];
}

/** Maps the domain linearly onto the range (an inverted range, e.g. SVG y, works too). */
export function linearScale(domain: Domain, range: Domain): (value: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  if (span === 0) return () => (r0 + r1) / 2;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

/** A 1, 2, 2.5 or 5 × 10^n step giving about `count` ticks over the span. */
export function niceStep(span: number, count: number): number {
  if (!(span > 0) || count < 1) return 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

/** The domain widened outwards to whole steps, so the axis starts and ends on a tick. */
export function niceDomain(domain: Domain, count = 5): Domain {
  const step = niceStep(domain[1] - domain[0], count);
  return [Math.floor(domain[0] / step) * step, Math.ceil(domain[1] / step) * step];
}

/** Tick values at whole steps inside the domain. */
export function ticks(domain: Domain, count = 5): number[] {
  const step = niceStep(domain[1] - domain[0], count);
  const out: number[] = [];
  const first = Math.ceil(domain[0] / step - 1e-9);
  const last = Math.floor(domain[1] / step + 1e-9);
  for (let i = first; i <= last; i++) out.push(Number((i * step).toPrecision(12)));
  return out;
}

/** x of the index-th of `count` evenly spaced points between left and right (one point: centred). */
export function pointX(index: number, count: number, left: number, right: number): number {
  if (count <= 1) return (left + right) / 2;
  return left + (index / (count - 1)) * (right - left);
}

/** The band (slot) of the index-th of `count` bars: its left edge and width, with a gap ratio. */
export function bandOf(index: number, count: number, left: number, right: number, gap = 0.2): { x: number; width: number } {
  const slot = (right - left) / Math.max(1, count);
  const width = slot * (1 - gap);
  return { x: left + index * slot + (slot - width) / 2, width };
}

/** An SVG path through the points; a null y breaks the line (a gap, not a drop to zero). */
export function linePath(points: readonly { x: number; y: number | null }[]): string {
  let path = '';
  let drawing = false;
  for (const { x, y } of points) {
    if (y === null) {
      drawing = false;
      continue;
    }
    path += `${drawing ? 'L' : 'M'}${round(x)} ${round(y)}`;
    drawing = true;
  }
  return path;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
