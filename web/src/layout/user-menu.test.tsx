import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { installFetch, removeFetch } from '../../test/fake-fetch';
import { TestProviders, fakeSessionState, signedInSession } from '../../test/providers';
import { unreadBadgeText } from '../notifications/header-bell';
import { NOTIFICATIONS_STORAGE_KEY } from '../notifications/notification-store';
import type { SessionState } from '../accounts/session-provider';
import { SiteHeader } from './site-header';

function CurrentPath() {
  return <p data-testid="current-path">{useLocation().pathname}</p>;
}

function renderSignedIn(state: SessionState, path = '/features') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <TestProviders session={state}>
        <SiteHeader />
        <Routes>
          <Route path="*" element={<CurrentPath />} />
        </Routes>
      </TestProviders>
    </MemoryRouter>,
  );
}

function openMenu() {
  fireEvent.click(screen.getByRole('button', { name: 'Account menu' }));
}

beforeEach(() => {
  window.localStorage.clear();
  // Signed in, the notification centre asks the server for its list on mount. These tests are about
  // the header, so the server never answers in time: the request ends when the test unmounts (abort),
  // instead of failing ("fetch is not defined") or updating state after the test.
  installFetch(
    (_path, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')), { once: true });
      }),
  );
});
afterEach(removeFetch);

describe('signed-in header', () => {
  it('shows the avatar with the first letter of the name, linking to /dashboard, instead of Sign In/Up', () => {
    renderSignedIn(fakeSessionState(signedInSession({ name: 'grace', email: 'grace@example.com' })));

    const avatar = screen.getByRole('link', { name: 'grace: open your dashboard' });
    expect(avatar).toHaveAttribute('href', '/dashboard');
    expect(avatar).toHaveTextContent('G');
    const actions = within(screen.getByRole('banner'));
    expect(actions.queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
  });

  it('shows U when the user has no name, with the email part as display name and the email as subtitle', () => {
    renderSignedIn(fakeSessionState(signedInSession({ name: null, email: 'trader7@example.com' })));
    openMenu();

    expect(screen.getByRole('link', { name: 'trader7: open your dashboard' })).toHaveTextContent('U');
    expect(screen.getByText('trader7', { selector: '.user-menu__name' })).toBeInTheDocument();
    expect(screen.getByText('trader7@example.com')).toBeInTheDocument();
  });

  it('shows "Premium User" as subtitle when the email has no @', () => {
    renderSignedIn(fakeSessionState(signedInSession({ name: 'Ada', email: 'ada-at-desk' })));
    openMenu();

    expect(screen.getByText('Premium User')).toBeInTheDocument();
  });

  it('offers the bell, settings and the theme choice in the menu', () => {
    renderSignedIn(fakeSessionState(signedInSession()));
    openMenu();

    expect(screen.getByRole('link', { name: 'All notifications' })).toHaveAttribute('href', '/dashboard/activity');
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/dashboard/settings');
    expect(screen.getByRole('radio', { name: 'Auto' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Light' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeInTheDocument();
  });

  it('puts an unread dot on the menu’s own bell when there are unread notifications', () => {
    window.localStorage.setItem(
      NOTIFICATIONS_STORAGE_KEY,
      JSON.stringify([{ id: 'n1', timestamp: 1, read: false, title: 'NYSE now open', message: 'has opened', type: 'info' }]),
    );
    renderSignedIn(fakeSessionState(signedInSession()));
    openMenu();

    expect(screen.getByRole('link', { name: 'All notifications, 1 unread' })).toHaveAttribute('href', '/dashboard/activity');
    expect(screen.getByTestId('bell-unread-dot')).toBeInTheDocument();
  });

  it('shows the bell in the header, outside the menu, with the unread count', () => {
    const unread = [1, 2, 3].map((n) => ({ id: `n${n}`, timestamp: n, read: false, title: `Event ${n}`, message: 'happened', type: 'info' }));
    window.localStorage.setItem(NOTIFICATIONS_STORAGE_KEY, JSON.stringify([...unread, { id: 'n4', timestamp: 4, read: true, title: 'Old', message: 'read', type: 'info' }]));
    renderSignedIn(fakeSessionState(signedInSession()));

    // The account menu is closed: the bell is in the bar itself.
    expect(screen.getByRole('button', { name: 'Account menu' })).toHaveAttribute('aria-expanded', 'false');
    const bell = screen.getByRole('link', { name: 'Notifications, 3 unread' });
    expect(bell).toHaveAttribute('href', '/dashboard/activity');
    expect(bell).toHaveTextContent('3');
    expect(bell.closest('.user-menu__panel')).toBeNull();
    fireEvent.click(bell);
    expect(screen.getByTestId('current-path')).toHaveTextContent('/dashboard/activity');
  });

  it('shows the header bell without a count when everything is read, and 99+ past 99', () => {
    renderSignedIn(fakeSessionState(signedInSession()));
    expect(screen.getByRole('link', { name: 'Notifications' })).not.toHaveTextContent(/\d/);
    expect(unreadBadgeText(100)).toBe('99+');
    expect(unreadBadgeText(99)).toBe('99');
  });

  it('Sign Out ends the session and goes to /', async () => {
    const state = fakeSessionState(signedInSession());
    renderSignedIn(state, '/pricing');
    openMenu();

    fireEvent.click(screen.getByRole('button', { name: 'Sign Out' }));

    await waitFor(() => expect(screen.getByTestId('current-path')).toHaveTextContent(/^\/$/));
    expect(state.signOut).toHaveBeenCalledTimes(1);
  });

  it('closes the menu on Escape and returns focus to its toggle', () => {
    renderSignedIn(fakeSessionState(signedInSession()));
    openMenu();
    const toggle = screen.getByRole('button', { name: 'Account menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');

    fireEvent.keyDown(document, { key: 'Escape' });

    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('offers Dashboard and Sign Out instead of Create Account in the mobile menu', () => {
    renderSignedIn(fakeSessionState(signedInSession()));

    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    const mobile = within(screen.getByRole('navigation', { name: 'Mobile' }).parentElement as HTMLElement);

    expect(mobile.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(mobile.getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
    expect(mobile.queryByRole('link', { name: 'Create Account' })).not.toBeInTheDocument();
  });
});
