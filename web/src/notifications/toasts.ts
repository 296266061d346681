// Toast settings from the product spec (sections 4 and 9) and the calls that show toasts.
// react-toastify is loaded on first use, so anonymous visitors of public pages never download it.
import type { ToastContainerProps } from 'react-toastify';
import type { NotificationType } from '@tickerbell/jobs/notifications/shapes';

export const TOAST_AUTO_CLOSE_MS = 4000;
export const TOAST_LIMIT = 3;

export const TOAST_CONTAINER_PROPS: ToastContainerProps = {
  position: 'bottom-right',
  autoClose: TOAST_AUTO_CLOSE_MS,
  limit: TOAST_LIMIT,
  newestOnTop: true,
  closeOnClick: false,
  pauseOnFocusLoss: true,
  draggable: true,
  // Spec: swipe-dismiss at 45 px; as a share of the 356 px toast width that is about 13 %.
  draggablePercent: 13,
  // Spec: Alt+T moves keyboard focus to the newest toast.
  hotKeys: (event) => event.altKey && event.code === 'KeyT',
};

/** Toasts are suppressed where the full history is already on screen. */
export function toastsSuppressedOn(pathname: string): boolean {
  return pathname.includes('/dashboard/activity');
}

function loadToastify(): Promise<typeof import('react-toastify')> {
  return import('react-toastify');
}

export function showNotificationToast(title: string, message: string, type: NotificationType): Promise<void> {
  return loadToastify()
    .then(({ toast }) => {
      toast(`${title}: ${message}`, { type });
    })
    .catch((error: unknown) => console.error('Could not show a toast', error));
}

export interface LoadingToast {
  success: (message: string) => Promise<void>;
  error: (message: string) => Promise<void>;
}

/** A loading toast that later turns into success or error and then auto-closes. */
export function loadingToast(message: string): LoadingToast {
  const shown = loadToastify().then(({ toast }) => ({ toast, id: toast.loading(message) }));
  const finish = async (type: 'success' | 'error', text: string): Promise<void> => {
    const { toast, id } = await shown;
    toast.update(id, { render: text, type, isLoading: false, autoClose: TOAST_AUTO_CLOSE_MS, closeButton: true });
  };
  return { success: (text) => finish('success', text), error: (text) => finish('error', text) };
}
