// Installed-app detection and tracking (product spec sections 4 and 7).
import { isRecord } from '../api/client';
import { sendWithCsrf } from '../accounts/auth-client';

export const PWA_INSTALL_PATH = '/api/user/pwa-install';
/** Remembers that this browser already reported its install, so it is sent once. */
export const PWA_REPORTED_KEY = 'tickerbell:pwa-install-reported';

export type InstallSource = 'install-prompt' | 'standalone-launch';

type MatchMedia = (query: string) => Pick<MediaQueryList, 'matches'>;

/** True when running as an installed app (standalone display mode, or iOS home-screen). */
export function isStandalone(matchMedia: MatchMedia | null = typeof window.matchMedia === 'function' ? window.matchMedia.bind(window) : null): boolean {
  const iosStandalone = (window.navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || (matchMedia?.('(display-mode: standalone)').matches ?? false);
}

/** Service worker and push are both available: the app can be installed and receive pushes. */
export function isPwaSupported(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && typeof window.PushManager === 'function';
}

export async function reportPwaInstall(installSource: InstallSource): Promise<void> {
  await sendWithCsrf(PWA_INSTALL_PATH, {
    method: 'POST',
    body: { installSource },
    parse: (body) => {
      if (!isRecord(body) || body.pwaInstalled !== true) throw new TypeError('pwa-install: expected { pwaInstalled: true }');
      return undefined;
    },
  });
}
