import { toast } from 'react-toastify';
import { TOAST_CONTAINER_PROPS, loadingToast, toastsSuppressedOn } from './toasts';

jest.mock('react-toastify', () => ({
  toast: Object.assign(jest.fn(), { loading: jest.fn(() => 'toast-1'), update: jest.fn() }),
}));

describe('toast settings', () => {
  it('shows at most 3 toasts bottom-right, closing after 4 s', () => {
    expect(TOAST_CONTAINER_PROPS).toMatchObject({ position: 'bottom-right', autoClose: 4000, limit: 3 });
    const hotKeys = TOAST_CONTAINER_PROPS.hotKeys!;
    expect(hotKeys(new KeyboardEvent('keydown', { altKey: true, code: 'KeyT' }))).toBe(true);
    expect(hotKeys(new KeyboardEvent('keydown', { code: 'KeyT' }))).toBe(false);
    expect(hotKeys(new KeyboardEvent('keydown', { altKey: true, code: 'KeyR' }))).toBe(false);
  });

  it('is suppressed on any path containing /dashboard/activity', () => {
    expect(toastsSuppressedOn('/dashboard/activity')).toBe(true);
    expect(toastsSuppressedOn('/en/dashboard/activity/today')).toBe(true);
    expect(toastsSuppressedOn('/dashboard')).toBe(false);
  });
});

describe('loadingToast', () => {
  it('turns a loading toast into success, auto-closing after 4 s', async () => {
    const pending = loadingToast('Saving…');
    await pending.success('Saved');

    expect(toast.loading).toHaveBeenCalledWith('Saving…');
    expect(toast.update).toHaveBeenCalledWith('toast-1', expect.objectContaining({ render: 'Saved', type: 'success', isLoading: false, autoClose: 4000 }));
  });

  it('turns a loading toast into an error', async () => {
    await loadingToast('Saving…').error('Could not save');

    expect(toast.update).toHaveBeenLastCalledWith('toast-1', expect.objectContaining({ render: 'Could not save', type: 'error', isLoading: false }));
  });
});
