import { useEffect, useRef } from 'react';
import {
  AVATAR_PARTICLE_LAYERS,
  AVATAR_PARTICLE_LOOK,
  areaScaledCount,
  createParticles,
  stepParticles,
  type Particle,
} from './particle-field';
import { prefersReducedMotion, startFrameLoop } from './frame-loop';

interface Layer {
  colour: string;
  particles: Particle[];
}

/** Creates the badge's layers for its size: counts scale with the area (particle-field.ts). */
export function avatarLayers(width: number, height: number, random: () => number): Layer[] {
  return AVATAR_PARTICLE_LAYERS.map((layer) => ({
    colour: layer.colour,
    particles: createParticles(width, height, random, areaScaledCount(layer.density, width, height), AVATAR_PARTICLE_LOOK),
  }));
}

/** The avatar badge's shimmer: two particle layers (white, light blue) over the initial, clipped to the badge. */
export function AvatarParticles() {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    const width = canvas.clientWidth || 36;
    const height = canvas.clientHeight || 36;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);

    let layers = avatarLayers(width, height, Math.random);
    const draw = (): void => {
      context.clearRect(0, 0, width, height);
      for (const layer of layers) {
        context.fillStyle = layer.colour;
        for (const particle of layer.particles) {
          context.beginPath();
          context.arc(particle.x, particle.y, particle.size, 0, Math.PI * 2);
          context.fill();
        }
      }
    };
    draw();
    if (prefersReducedMotion()) return;
    return startFrameLoop((elapsed) => {
      layers = layers.map((layer) => ({ ...layer, particles: stepParticles(layer.particles, elapsed, width, height) }));
      draw();
    });
  }, []);

  return <canvas ref={canvasRef} className="avatar__particles" aria-hidden="true" data-testid="avatar-particles" />;
}
