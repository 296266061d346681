import { PARTICLE_SETTINGS, addParticlesAt, createParticles, shouldDrawFrame, stepParticles, type Particle } from './particle-field';

/** A deterministic stand-in for Math.random. */
function sequence(...values: number[]): () => number {
  let index = 0;
  return () => values[index++ % values.length] ?? 0;
}

describe('particle settings', () => {
  it('match the spec constants', () => {
    expect(PARTICLE_SETTINGS).toMatchObject({
      frameLimit: 120,
      colour: '#ffffff',
      minSize: 1,
      maxSize: 3,
      speed: 4,
      density: 120,
      particlesPerClick: 4,
    });
  });
});

describe('createParticles', () => {
  it('creates density-many particles inside the area, sized 1 to 3, never faster than speed 4', () => {
    const particles = createParticles(800, 600, Math.random);

    expect(particles).toHaveLength(120);
    for (const particle of particles) {
      expect(particle.x).toBeGreaterThanOrEqual(0);
      expect(particle.x).toBeLessThanOrEqual(800);
      expect(particle.y).toBeGreaterThanOrEqual(0);
      expect(particle.y).toBeLessThanOrEqual(600);
      expect(particle.size).toBeGreaterThanOrEqual(1);
      expect(particle.size).toBeLessThanOrEqual(3);
      expect(Math.hypot(particle.vx, particle.vy)).toBeLessThanOrEqual(4 + 1e-9);
    }
  });
});

describe('addParticlesAt', () => {
  it('adds 4 particles at the click position and keeps the existing ones', () => {
    const existing = createParticles(100, 100, sequence(0.5), 2);

    const after = addParticlesAt(existing, 40, 70, sequence(0.1, 0.9, 0.3));

    expect(after).toHaveLength(6);
    expect(after.slice(0, 2)).toEqual(existing);
    expect(after.slice(2).every((particle) => particle.x === 40 && particle.y === 70)).toBe(true);
  });
});

describe('stepParticles', () => {
  const particle: Particle = { x: 50, y: 50, vx: 2, vy: -1, size: 2 };

  it('moves by velocity per 60 Hz frame, scaled by the elapsed time', () => {
    const [oneFrame] = stepParticles([particle], 1000 / 60, 200, 200);
    const [halfFrame] = stepParticles([particle], 1000 / 120, 200, 200);

    expect(oneFrame?.x).toBeCloseTo(52);
    expect(oneFrame?.y).toBeCloseTo(49);
    expect(halfFrame?.x).toBeCloseTo(51);
  });

  it('wraps a particle leaving one edge to the opposite edge', () => {
    const [wrapped] = stepParticles([{ x: 201, y: 10, vx: 4, vy: 0, size: 2 }], 1000 / 60, 200, 200);

    expect(wrapped?.x).toBeLessThan(10);
  });

  it('does not change the particles it was given', () => {
    const input = [{ ...particle }];
    stepParticles(input, 16, 200, 200);

    expect(input[0]).toEqual(particle);
  });
});

describe('shouldDrawFrame', () => {
  it('draws at most 120 frames a second', () => {
    expect(shouldDrawFrame(4)).toBe(false);
    expect(shouldDrawFrame(1000 / 120)).toBe(true);
    expect(shouldDrawFrame(16)).toBe(true);
  });
});
