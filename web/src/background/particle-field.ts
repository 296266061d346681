// The decorative particle background's constants (product spec section 9) and its pure update
// logic; particle-background.tsx only draws what these functions compute.

export const PARTICLE_SETTINGS = {
  /** Frames per second at most. */
  frameLimit: 120,
  background: '#0b1a3a',
  colour: '#ffffff',
  minSize: 1,
  maxSize: 3,
  /** Largest distance a particle travels per 60 Hz frame, in CSS pixels. */
  speed: 4,
  density: 120,
  particlesPerClick: 4,
} as const;

/** Milliseconds of one 60 Hz frame: speeds are per such frame, whatever the real frame rate. */
const BASE_FRAME_MS = 1000 / 60;

export interface Particle {
  x: number;
  y: number;
  vx: number;
  vy: number;
  size: number;
}

export type Random = () => number;

/** Size and speed of a particle layer (the page background's by default). */
export interface ParticleLook {
  minSize: number;
  maxSize: number;
  speed: number;
}

export function createParticle(x: number, y: number, random: Random, look: ParticleLook = PARTICLE_SETTINGS): Particle {
  const angle = random() * Math.PI * 2;
  // At least a quarter of the top speed, so nothing hangs still.
  const speed = look.speed * (0.25 + 0.75 * random());
  return {
    x,
    y,
    vx: Math.cos(angle) * speed,
    vy: Math.sin(angle) * speed,
    size: look.minSize + random() * (look.maxSize - look.minSize),
  };
}

export function createParticles(
  width: number,
  height: number,
  random: Random,
  count: number = PARTICLE_SETTINGS.density,
  look: ParticleLook = PARTICLE_SETTINGS,
): Particle[] {
  return Array.from({ length: count }, () => createParticle(random() * width, random() * height, random, look));
}

/**
 * The avatar badge's two particle layers (spec section 9: white at density 1200, light blue at
 * 600). Those densities are the original particle library's area-scaled counts: `density`
 * particles per reference area of 800 x 1000 CSS px^2 (its defaults), so a badge gets
 * `density * badgeArea / 800,000` of each, at least one: a 36 px badge shows 2 white and 1 blue
 * sparkle, a 48 px one 3 and 2. The particles are smaller and slower than the page's so they read
 * as a shimmer on the initial, not as noise.
 */
export const AVATAR_PARTICLE_LAYERS = [
  { colour: '#ffffff', density: 1200 },
  { colour: '#9fd3ff', density: 600 },
] as const;

export const AVATAR_PARTICLE_LOOK: ParticleLook = { minSize: 0.5, maxSize: 1.2, speed: 0.25 };

/** Reference area of the density scaling above, in CSS px^2. */
export const DENSITY_REFERENCE_AREA = 800 * 1000;

export function areaScaledCount(density: number, width: number, height: number): number {
  return Math.max(1, Math.round((density * width * height) / DENSITY_REFERENCE_AREA));
}

/** A click adds particles where it landed. */
export function addParticlesAt(particles: readonly Particle[], x: number, y: number, random: Random): Particle[] {
  const added = Array.from({ length: PARTICLE_SETTINGS.particlesPerClick }, () => createParticle(x, y, random));
  return [...particles, ...added];
}

function wrap(value: number, size: number, margin: number): number {
  if (value < -margin) return value + size + 2 * margin;
  if (value > size + margin) return value - size - 2 * margin;
  return value;
}

/** Moves every particle by `elapsedMs`; particles leaving one edge come back at the opposite one. */
export function stepParticles(particles: readonly Particle[], elapsedMs: number, width: number, height: number): Particle[] {
  const frames = elapsedMs / BASE_FRAME_MS;
  return particles.map((particle) => ({
    ...particle,
    x: wrap(particle.x + particle.vx * frames, width, particle.size),
    y: wrap(particle.y + particle.vy * frames, height, particle.size),
  }));
}

/** True when enough time has passed since the last drawn frame to draw another under the limit. */
export function shouldDrawFrame(sinceLastFrameMs: number, frameLimit: number = PARTICLE_SETTINGS.frameLimit): boolean {
  // A millisecond of slack: requestAnimationFrame on a 120 Hz screen fires every ~8.3 ms.
  return sinceLastFrameMs >= 1000 / frameLimit - 1;
}
