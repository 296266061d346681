import { fireEvent, render } from '@testing-library/react';
import { ParticleBackground } from './particle-background';

function fakeContext() {
  return { fillRect: jest.fn(), beginPath: jest.fn(), arc: jest.fn(), fill: jest.fn(), setTransform: jest.fn(), fillStyle: '' };
}

function mockMotionPreference(reduced: boolean): void {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({ matches: reduced && query === '(prefers-reduced-motion: reduce)' }),
  });
}

let context: ReturnType<typeof fakeContext>;
let getContext: jest.SpyInstance;
let requestFrame: jest.SpyInstance;

beforeEach(() => {
  context = fakeContext();
  getContext = jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => context as unknown as CanvasRenderingContext2D);
  requestFrame = jest.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 1);
});

afterEach(() => {
  getContext.mockRestore();
  requestFrame.mockRestore();
  Reflect.deleteProperty(window, 'matchMedia');
});

function renderInHost() {
  return render(
    <section data-testid="host">
      <ParticleBackground />
    </section>,
  );
}

describe('ParticleBackground', () => {
  it('animates when motion is allowed', () => {
    mockMotionPreference(false);
    renderInHost();

    expect(requestFrame).toHaveBeenCalled();
    expect(context.arc).toHaveBeenCalledTimes(120);
  });

  it('draws one still frame and never animates with reduced motion', () => {
    mockMotionPreference(true);
    renderInHost();

    expect(context.fillRect).toHaveBeenCalledTimes(1);
    expect(context.arc).toHaveBeenCalledTimes(120);
    expect(requestFrame).not.toHaveBeenCalled();
  });

  it('adds 4 particles on a click', () => {
    mockMotionPreference(true);
    const { getByTestId } = renderInHost();
    context.arc.mockClear();

    fireEvent.click(getByTestId('host'), { clientX: 10, clientY: 10 });

    expect(context.arc).toHaveBeenCalledTimes(124);
  });

  it('is hidden from assistive technology', () => {
    mockMotionPreference(true);
    const { container } = renderInHost();

    expect(container.querySelector('canvas')).toHaveAttribute('aria-hidden', 'true');
  });
});
