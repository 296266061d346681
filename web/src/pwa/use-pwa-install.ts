import { useEffect } from 'react';
import { PWA_REPORTED_KEY, isStandalone, reportPwaInstall, type InstallSource } from './pwa-install';

function alreadyReported(): boolean {
  try {
    return window.localStorage.getItem(PWA_REPORTED_KEY) === 'true';
  } catch {
    return false;
  }
}

function report(source: InstallSource): void {
  reportPwaInstall(source)
    .then(() => {
      try {
        window.localStorage.setItem(PWA_REPORTED_KEY, 'true');
      } catch {
        // Reported again next time: the api keeps the first install date anyway.
      }
    })
    // Spec section 8: a failed install tracking call is logged to the console only.
    .catch((error: unknown) => console.error('PWA install tracking failed', error));
}

/**
 * While signed in: reports `appinstalled` to the api, and reports a launch in standalone mode
 * once (an install made while signed out, or on another visit).
 */
export function usePwaInstallTracking(signedIn: boolean): void {
  useEffect(() => {
    if (!signedIn) return;
    const onInstalled = (): void => report('install-prompt');
    window.addEventListener('appinstalled', onInstalled);
    if (isStandalone() && !alreadyReported()) report('standalone-launch');
    return () => window.removeEventListener('appinstalled', onInstalled);
  }, [signedIn]);
}
