import { render } from '@testing-library/react';
import { AvatarBadge } from '../layout/user-menu';
import { AvatarParticles, avatarLayers } from './avatar-particles';
import { AVATAR_PARTICLE_LAYERS, AVATAR_PARTICLE_LOOK, areaScaledCount } from './particle-field';

describe('avatar badge particles', () => {
  it('has two layers, white at density 1200 and light blue at 600', () => {
    expect(AVATAR_PARTICLE_LAYERS.map((l) => [l.colour, l.density])).toEqual([
      ['#ffffff', 1200],
      ['#9fd3ff', 600],
    ]);
  });

  it('scales each layer with the badge area, keeping the 2:1 ratio and at least one particle', () => {
    expect([areaScaledCount(1200, 36, 36), areaScaledCount(600, 36, 36)]).toEqual([2, 1]);
    expect([areaScaledCount(1200, 48, 48), areaScaledCount(600, 48, 48)]).toEqual([3, 2]);
    expect(areaScaledCount(600, 10, 10)).toBe(1);
    // The page-sized canvas of the original library: 1200 per 800,000 px^2.
    expect(areaScaledCount(1200, 800, 1000)).toBe(1200);
  });

  it('creates the layers inside the badge with the small, slow look', () => {
    const layers = avatarLayers(48, 48, Math.random);
    expect(layers.map((l) => [l.colour, l.particles.length])).toEqual([
      ['#ffffff', 3],
      ['#9fd3ff', 2],
    ]);
    for (const particle of layers.flatMap((l) => l.particles)) {
      expect(particle.x).toBeGreaterThanOrEqual(0);
      expect(particle.x).toBeLessThanOrEqual(48);
      expect(particle.size).toBeGreaterThanOrEqual(AVATAR_PARTICLE_LOOK.minSize);
      expect(particle.size).toBeLessThanOrEqual(AVATAR_PARTICLE_LOOK.maxSize);
      expect(Math.hypot(particle.vx, particle.vy)).toBeLessThanOrEqual(AVATAR_PARTICLE_LOOK.speed + 1e-9);
    }
  });

  it('draws under the initial, beside the green online dot, hidden from assistive tech', () => {
    const { container } = render(<AvatarBadge initial="G" />);
    const badge = container.querySelector('.avatar');
    expect(badge?.querySelector('canvas.avatar__particles')).not.toBeNull();
    expect(badge?.querySelector('.avatar__initial')?.textContent).toBe('G');
    expect(badge?.querySelector('.avatar__online')).not.toBeNull();
    expect(badge).toHaveAttribute('aria-hidden', 'true');
  });

  it('renders without a 2d context (nothing drawn, nothing thrown)', () => {
    expect(() => render(<AvatarParticles />)).not.toThrow();
  });
});
