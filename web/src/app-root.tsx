import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { lazyComponent } from './lazy-component';
import { NotificationProvider } from './notifications/notification-provider';
import { useNotificationStream } from './notifications/use-notification-stream';
import { usePwaInstallTracking } from './pwa/use-pwa-install';
import { SessionProvider, useSession } from './accounts/session-provider';
import { ThemeProvider } from './theme/theme-provider';

// Toasts are for signed-in visitors: their code stays out of the public pages' initial bundle.
const ToastHost = lazyComponent(() => import('./notifications/toast-host').then((m) => m.ToastHost));

/** Live notifications and install tracking only make sense for a signed-in visitor. */
function SignedInServices() {
  const { status } = useSession();
  const signedIn = status === 'authenticated';
  useNotificationStream(signedIn);
  usePwaInstallTracking(signedIn);
  return signedIn ? (
    <Suspense fallback={null}>
      <ToastHost />
    </Suspense>
  ) : null;
}

/** Providers every page shares; sits inside the router so they can read the location. */
export function AppRoot() {
  return (
    <ThemeProvider>
      <SessionProvider>
        <NotificationProvider>
          <Outlet />
          <SignedInServices />
        </NotificationProvider>
      </SessionProvider>
    </ThemeProvider>
  );
}
