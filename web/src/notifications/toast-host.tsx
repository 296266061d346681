import { ToastContainer } from 'react-toastify';
import { useTheme } from '../theme/theme-provider';
import { TOAST_CONTAINER_PROPS } from './toasts';

/** Where toasts appear; loaded on demand (see app-root.tsx). */
export function ToastHost() {
  const { theme } = useTheme();
  return <ToastContainer {...TOAST_CONTAINER_PROPS} theme={theme} />;
}
