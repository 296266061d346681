import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { removeFetch } from '../../test/fake-fetch';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';
import { NOTIFICATIONS_STORAGE_KEY, type AppNotification } from '../notifications/notification-store';
import { SOUND_ENABLED_KEY } from '../notifications/notification-sound';
import { DASHBOARD_AREAS } from './dashboard-nav';
import { formatCountdown, formatTradingDays, parseExchanges } from './exchanges-client';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

const exchanges = [
  {
    id: 'xnys',
    name: 'New York Stock Exchange',
    location: 'New York',
    open: '09:30',
    close: '16:00',
    timezone: 'America/New_York',
    days: [1, 2, 3, 4, 5],
    status: 'open',
    nextTransition: { kind: 'close', at: new Date(Date.now() + 2 * 3600_000 + 5 * 60_000 + 30_000).toISOString() },
    following: true,
  },
  {
    id: 'xlon',
    name: 'London Stock Exchange',
    location: 'London',
    open: '08:00',
    close: '16:30',
    timezone: 'Europe/London',
    days: [1, 2, 3, 4, 5],
    status: 'closed',
    nextTransition: null,
    following: false,
  },
];

function stored(list: Partial<AppNotification>[]): void {
  const full = list.map((item, index) => ({
    id: `n${index}`,
    timestamp: 1_700_000_000_000 - index * 60_000,
    read: false,
    title: `Notification ${index}`,
    message: `Message ${index}`,
    type: 'info',
    ...item,
  }));
  window.localStorage.setItem(NOTIFICATIONS_STORAGE_KEY, JSON.stringify(full));
}

function signedInApi() {
  return installFakeApi(signedInSession({ name: 'Ada Lovelace' }), (path) =>
    path === '/api/exchanges' ? { status: 200, body: exchanges } : { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } },
  );
}

beforeEach(() => window.localStorage.clear());
afterEach(removeFetch);

describe('dashboard access', () => {
  it('sends a signed-out visitor to sign-in with SessionRequired and a callbackUrl', async () => {
    installFakeApi(null);
    const router = renderApp('/dashboard/settings');

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    const query = new URLSearchParams(router.state.location.search);
    expect(query.get('error')).toBe('SessionRequired');
    expect(query.get('callbackUrl')).toBe('/dashboard/settings');
    expect(screen.getByRole('alert')).toHaveTextContent('Please sign in to open that page.');
  });

  it('shows the demo without signing in, clearly labelled as demo data', async () => {
    installFakeApi(null);
    renderApp('/dashboard/demo');

    expect(await screen.findByRole('heading', { level: 1, name: 'Demo dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('sample data, read-only');
    expect(screen.getByRole('heading', { name: 'Followed exchanges (demo data)' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Mark read/ })).not.toBeInTheDocument();
  });
});

describe('dashboard navigation', () => {
  it('lists only the areas that exist, and each one opens its page', async () => {
    signedInApi();
    const router = renderApp('/dashboard');
    const nav = within(await screen.findByRole('navigation', { name: 'Dashboard' }));

    expect(nav.getAllByRole('link').map((link) => link.textContent)).toEqual(['Overview', 'Exchanges', 'Alerts', 'COT', 'Watchlists', 'Charts', 'Activity', 'Settings']);
    for (const area of DASHBOARD_AREAS) {
      await act(() => router.navigate(area.to));
      const heading = await screen.findByRole('heading', { level: 1 });
      expect(heading.textContent).not.toBe('Page not found');
    }
  });
});

describe('overview', () => {
  it('shows followed exchanges with status and countdown, and the latest notifications', async () => {
    stored([{ title: 'NYSE now open' }, { title: 'LSE closing soon' }]);
    signedInApi();
    renderApp('/dashboard');

    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada Lovelace' })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    expect(within(table).getByText('New York Stock Exchange')).toBeInTheDocument();
    expect(within(table).queryByText('London Stock Exchange')).not.toBeInTheDocument();
    expect(within(table).getByText(/in 2 h 0[45] min/)).toBeInTheDocument();
    expect(screen.getByText('NYSE now open')).toBeInTheDocument();
    expect(screen.getByText('LSE closing soon')).toBeInTheDocument();
  });
});

describe('activity', () => {
  it('shows the history and marks read one at a time, all at once, and clears', async () => {
    stored([{ title: 'First' }, { title: 'Second' }, { title: 'Third', read: true }]);
    signedInApi();
    renderApp('/dashboard/activity');
    await screen.findByRole('heading', { level: 1, name: 'Activity' });
    expect(screen.getByText('2 unread.', { exact: false })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Mark read: First' }));
    expect(screen.getByText('1 unread.', { exact: false })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Mark all read' }));
    expect(screen.getByText('All read.', { exact: false })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(screen.getByText('No notifications.')).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem(NOTIFICATIONS_STORAGE_KEY) ?? 'null')).toEqual([]);
  });
});

describe('settings', () => {
  it('switches sound off and on, stored as soundEnabled', async () => {
    signedInApi();
    renderApp('/dashboard/settings');
    const toggle = await screen.findByRole('switch', { name: 'Play sounds and spoken alerts' });
    expect(toggle).toBeChecked();

    fireEvent.click(toggle);
    expect(window.localStorage.getItem(SOUND_ENABLED_KEY)).toBe('false');
    fireEvent.click(toggle);
    expect(window.localStorage.getItem(SOUND_ENABLED_KEY)).toBe('true');
  });

  it('offers the theme choice', async () => {
    signedInApi();
    renderApp('/dashboard/settings');
    await screen.findByRole('heading', { level: 1, name: 'Settings' });

    fireEvent.click(within(screen.getByRole('main')).getByRole('radio', { name: 'Dark' }));

    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
  });
});

describe('exchange helpers', () => {
  it('formats countdowns', () => {
    expect(formatCountdown(0, 4 * 60_000 + 5_000)).toBe('in 4 min 05 s');
    expect(formatCountdown(0, 2 * 3600_000 + 7 * 60_000)).toBe('in 2 h 07 min');
    expect(formatCountdown(0, 3 * 86_400_000 + 4 * 3600_000)).toBe('in 3 d 4 h');
    expect(formatCountdown(10, 5)).toBe('now');
  });

  it('formats trading days', () => {
    expect(formatTradingDays([1, 2, 3, 4, 5])).toBe('Mon–Fri');
    expect(formatTradingDays([0, 6])).toBe('Sat, Sun');
  });

  it('refuses an exchange list of the wrong shape', () => {
    expect(() => parseExchanges([{ id: 'x' }])).toThrow(TypeError);
    expect(parseExchanges(exchanges)).toHaveLength(2);
  });
});
