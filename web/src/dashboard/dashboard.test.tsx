import { act, screen, within } from '@testing-library/react';
import { signedInDashboardApi, storeNotifications } from '../../test/dashboard-fakes';
import { removeFetch } from '../../test/fake-fetch';
import { installFakeApi, renderApp } from '../../test/render-app';
import { DASHBOARD_AREAS } from './dashboard-nav';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

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
    signedInDashboardApi();
    const router = renderApp('/dashboard');
    const nav = within(await screen.findByRole('navigation', { name: 'Dashboard' }));

    expect(nav.getAllByRole('link').map((link) => link.textContent)).toEqual(['Overview', 'Exchanges', 'Alerts', 'COT', 'Insiders', 'Whales', 'Yields', 'Predictions', 'Lock-ups', 'Chat', 'Watchlists', 'Charts', 'Activity', 'Settings']);
    for (const area of DASHBOARD_AREAS) {
      await act(() => router.navigate(area.to));
      const heading = await screen.findByRole('heading', { level: 1 });
      expect(heading.textContent).not.toBe('Page not found');
    }
  });
});

describe('dashboard navigation on phones', () => {
  it('folds the areas behind a button naming the current one, and folds them again after a choice', async () => {
    signedInDashboardApi();
    const router = renderApp('/dashboard/alerts');
    const nav = within(await screen.findByRole('navigation', { name: 'Dashboard' }));
    const toggle = nav.getByRole('button', { name: 'Dashboard areas: Alerts' });
    const list = nav.getByRole('list');

    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', list.id);
    expect(list).not.toHaveClass('dashboard-nav__list--open');

    act(() => toggle.click());
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(list).toHaveClass('dashboard-nav__list--open');

    act(() => nav.getByRole('link', { name: 'COT' }).click());
    expect(router.state.location.pathname).toBe('/dashboard/cot');
    expect(await nav.findByRole('button', { name: 'Dashboard areas: COT' })).toHaveAttribute('aria-expanded', 'false');
    expect(list).not.toHaveClass('dashboard-nav__list--open');
  });
});

describe('overview', () => {
  it('shows followed exchanges with status and countdown, and the latest notifications', async () => {
    storeNotifications([{ title: 'NYSE now open' }, { title: 'LSE closing soon' }]);
    signedInDashboardApi();
    renderApp('/dashboard');

    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada Lovelace' })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('rowheader', { name: /^New York Stock Exchange/ })).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Unfollow New York Stock Exchange' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(table).queryByRole('rowheader', { name: /^London Stock Exchange/ })).not.toBeInTheDocument();
    expect(within(table).getByText(/in 2 h 0[45] min/)).toBeInTheDocument();
    expect(screen.getByText('NYSE now open')).toBeInTheDocument();
    expect(screen.getByText('LSE closing soon')).toBeInTheDocument();
  });
});
