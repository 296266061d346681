import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installFetch, removeFetch } from '../../test/fake-fetch';
import { isStandalone, reportPwaInstall } from './pwa-install';
import { registerServiceWorker } from './register-service-worker';

const publicDir = join(__dirname, '..', '..', 'public');

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

function pngSize(path: string): { width: number; height: number } {
  const data = readFileSync(path);
  expect(data.subarray(1, 4).toString('ascii')).toBe('PNG');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

describe('web app manifest', () => {
  const manifest = JSON.parse(readFileSync(join(publicDir, 'manifest.webmanifest'), 'utf8')) as {
    name: string;
    display: string;
    theme_color: string;
    background_color: string;
    start_url: string;
    icons: ManifestIcon[];
  };

  it('describes an installable standalone app in the theme colours', () => {
    expect(manifest.name).toBe('Tickerbell');
    expect(manifest.display).toBe('standalone');
    expect(manifest.theme_color).toBe('#151924');
    expect(manifest.background_color).toBe('#151924');
    expect(manifest.start_url.startsWith('/')).toBe(true);
  });

  it('lists an SVG icon and PNG icons of 192 and 512 px that exist with those sizes', () => {
    expect(manifest.icons.some((icon) => icon.type === 'image/svg+xml')).toBe(true);
    for (const icon of manifest.icons) {
      const file = join(publicDir, icon.src);
      expect(readFileSync(file).length).toBeGreaterThan(0);
      if (icon.type !== 'image/png') continue;
      const [width, height] = icon.sizes.split('x').map(Number);
      expect(pngSize(file)).toEqual({ width, height });
    }
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  });
});

describe('notification sounds', () => {
  it.each(['warning', 'error', 'success', 'notification'])('ships %s.wav as PCM WAV audio', (name) => {
    const data = readFileSync(join(publicDir, 'sounds', `${name}.wav`));

    expect(data.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(data.subarray(8, 12).toString('ascii')).toBe('WAVE');
    expect(data.readUInt32LE(40)).toBe(data.length - 44);
  });
});

describe('isStandalone', () => {
  it('detects the standalone display mode', () => {
    expect(isStandalone((query) => ({ matches: query === '(display-mode: standalone)' }))).toBe(true);
    expect(isStandalone(() => ({ matches: false }))).toBe(false);
  });
});

describe('reportPwaInstall', () => {
  afterEach(removeFetch);

  it('posts the install source with the csrf token', async () => {
    const fetchMock = installFetch((path) =>
      path === '/api/auth/csrf' ? { status: 200, body: { csrfToken: 'tok' } } : { status: 200, body: { pwaInstalled: true } },
    );

    await reportPwaInstall('install-prompt');

    const [path, init] = fetchMock.mock.calls[1] ?? [];
    expect(path).toBe('/api/user/pwa-install');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ installSource: 'install-prompt' });
    expect((init?.headers as Record<string, string>)['x-csrf-token']).toBe('tok');
  });
});

describe('registerServiceWorker', () => {
  it('registers /sw.js for the whole site in production builds', async () => {
    const register = jest.fn(async () => ({}) as ServiceWorkerRegistration);

    await registerServiceWorker(true, { register } as unknown as ServiceWorkerContainer);

    expect(register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
  });

  it('does nothing in development or without service worker support', async () => {
    const register = jest.fn();

    await expect(registerServiceWorker(false, { register } as unknown as ServiceWorkerContainer)).resolves.toBeNull();
    await expect(registerServiceWorker(true, undefined)).resolves.toBeNull();
    expect(register).not.toHaveBeenCalled();
  });
});
