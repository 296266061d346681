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

export function createParticle(x: number, y: number, random: Random): Particle {
  const angle = random() * Math.PI * 2;
  // At least a quarter of the top speed, so nothing hangs still.
  const speed = PARTICLE_SETTINGS.speed * (0.25 + 0.75 * random());
  return {
    x,
    y,
    vx: Math.cos(angle) * speed,
    vy: Math.sin(angle) * speed,
    size: PARTICLE_SETTINGS.minSize + random() * (PARTICLE_SETTINGS.maxSize - PARTICLE_SETTINGS.minSize),
  };
}

export function createParticles(width: number, height: number, random: Random, count: number = PARTICLE_SETTINGS.density): Particle[] {
  return Array.from({ length: count }, () => createParticle(random() * width, random() * height, random));
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
