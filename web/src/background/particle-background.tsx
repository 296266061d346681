import { useEffect, useRef } from 'react';
import { prefersReducedMotion, startFrameLoop } from './frame-loop';
import { PARTICLE_SETTINGS, addParticlesAt, createParticles, stepParticles, type Particle } from './particle-field';
import './particle-background.css';

function draw(context: CanvasRenderingContext2D, particles: readonly Particle[], width: number, height: number): void {
  context.fillStyle = PARTICLE_SETTINGS.background;
  context.fillRect(0, 0, width, height);
  context.fillStyle = PARTICLE_SETTINGS.colour;
  for (const particle of particles) {
    context.beginPath();
    context.arc(particle.x, particle.y, particle.size, 0, Math.PI * 2);
    context.fill();
  }
}

/**
 * Decorative moving particles filling the parent element (which should be position: relative).
 * With reduced motion the particles are drawn once and stay still. A click adds 4 particles.
 */
export function ParticleBackground() {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    const host = canvas?.parentElement;
    if (!canvas || !context || !host) return;

    let width = 0;
    let height = 0;
    let particles: Particle[] = [];
    const still = prefersReducedMotion();

    const resize = (): void => {
      const ratio = window.devicePixelRatio || 1;
      width = host.clientWidth;
      height = host.clientHeight;
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      if (particles.length === 0) particles = createParticles(width, height, Math.random);
      draw(context, particles, width, height);
    };
    resize();

    const onClick = (event: MouseEvent): void => {
      const rect = canvas.getBoundingClientRect();
      particles = addParticlesAt(particles, event.clientX - rect.left, event.clientY - rect.top, Math.random);
      if (still) draw(context, particles, width, height);
    };
    host.addEventListener('click', onClick);
    window.addEventListener('resize', resize);

    const stop = still
      ? () => undefined
      : startFrameLoop((elapsed) => {
          particles = stepParticles(particles, elapsed, width, height);
          draw(context, particles, width, height);
        });

    return () => {
      stop();
      host.removeEventListener('click', onClick);
      window.removeEventListener('resize', resize);
    };
  }, []);

  return <canvas ref={canvasRef} className="particle-background" aria-hidden="true" />;
}
