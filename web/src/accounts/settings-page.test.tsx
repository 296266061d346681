import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { signedInDashboardApi } from '../../test/dashboard-fakes';
import { removeFetch } from '../../test/fake-fetch';
import { renderApp } from '../../test/render-app';
import { SOUND_ENABLED_KEY } from '../notifications/notification-sound';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

beforeEach(() => window.localStorage.clear());
afterEach(removeFetch);

describe('settings', () => {
  it('switches sound off and on, stored as soundEnabled', async () => {
    signedInDashboardApi();
    renderApp('/dashboard/settings');
    const toggle = await screen.findByRole('switch', { name: 'Play sounds and spoken alerts' });
    expect(toggle).toBeChecked();

    fireEvent.click(toggle);
    expect(window.localStorage.getItem(SOUND_ENABLED_KEY)).toBe('false');
    fireEvent.click(toggle);
    expect(window.localStorage.getItem(SOUND_ENABLED_KEY)).toBe('true');
  });

  it('offers the theme choice', async () => {
    signedInDashboardApi();
    renderApp('/dashboard/settings');
    await screen.findByRole('heading', { level: 1, name: 'Settings' });

    fireEvent.click(within(screen.getByRole('main')).getByRole('radio', { name: 'Dark' }));

    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
  });
});
