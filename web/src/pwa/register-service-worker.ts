// Registers web/public/sw.js. Only in production builds: in development Vite serves modules that
// a cached app shell would go stale against.
export const SERVICE_WORKER_URL = '/sw.js';

export function registerServiceWorker(
  isProduction: boolean,
  container: ServiceWorkerContainer | undefined = typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined,
): Promise<ServiceWorkerRegistration | null> {
  if (!isProduction || !container) return Promise.resolve(null);
  return container.register(SERVICE_WORKER_URL, { scope: '/' }).catch((error: unknown) => {
    console.error('Service worker registration failed', error);
    return null;
  });
}
