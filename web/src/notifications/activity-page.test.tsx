import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { signedInDashboardApi, storeNotifications } from '../../test/dashboard-fakes';
import { removeFetch } from '../../test/fake-fetch';
import { renderApp } from '../../test/render-app';
import { CLEAR_UNDO_MS } from './activity-page';
import { NOTIFICATIONS_STORAGE_KEY } from './notification-store';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

beforeEach(() => window.localStorage.clear());
afterEach(removeFetch);

describe('activity', () => {
  it('shows the history and marks read one at a time, all at once, and clears', async () => {
    storeNotifications([{ title: 'First' }, { title: 'Second' }, { title: 'Third', read: true }]);
    signedInDashboardApi();
    renderApp('/dashboard/activity');
    await screen.findByRole('heading', { level: 1, name: 'Activity' });
    expect(screen.getByText('2 unread.', { exact: false })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Mark read: First' }));
    expect(screen.getByText('1 unread.', { exact: false })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Mark all read' }));
    expect(screen.getByText('All read.', { exact: false })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Clear all…' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Clear all' }));
    expect(screen.getByText('No notifications.')).toBeInTheDocument();
  });

  it('asks before clearing all, and can keep them', async () => {
    storeNotifications([{ title: 'First' }, { title: 'Second' }]);
    const fetchMock = signedInDashboardApi();
    renderApp('/dashboard/activity');
    await screen.findByRole('heading', { level: 1, name: 'Activity' });

    fireEvent.click(screen.getByRole('button', { name: 'Clear all…' }));
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Clear all 2 notifications? They are deleted on every device you use.');
    fireEvent.click(screen.getByRole('button', { name: 'Keep them' }));

    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByText('First')).toBeInTheDocument();
    expect(deletes(fetchMock)).toBe(0);
  });

  it('clears with an undo, deleting nothing until the undo time is over or the page is left', async () => {
    storeNotifications([{ title: 'First' }, { title: 'Second' }]);
    const fetchMock = signedInDashboardApi();
    const router = renderApp('/dashboard/activity');
    await screen.findByRole('heading', { level: 1, name: 'Activity' });

    fireEvent.click(screen.getByRole('button', { name: 'Clear all…' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Clear all' }));
    expect(screen.getByText('No notifications.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Cleared 2 notifications. You can undo this for 10 seconds.');
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));

    expect(screen.getByText('First')).toBeInTheDocument();
    expect(screen.getByText('Kept your notifications.')).toBeInTheDocument();
    expect(deletes(fetchMock)).toBe(0);
    expect(JSON.parse(window.localStorage.getItem(NOTIFICATIONS_STORAGE_KEY) ?? '[]')).toHaveLength(2);

    // Cleared again and the page left: the clear goes ahead, on the server too.
    fireEvent.click(screen.getByRole('button', { name: 'Clear all…' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Clear all' }));
    await act(() => router.navigate('/dashboard'));
    await waitFor(() => expect(deletes(fetchMock)).toBe(1));
    expect(JSON.parse(window.localStorage.getItem(NOTIFICATIONS_STORAGE_KEY) ?? 'null')).toEqual([]);
  });

  it('deletes them once the undo time is over', async () => {
    storeNotifications([{ title: 'Only' }]);
    const fetchMock = signedInDashboardApi();
    renderApp('/dashboard/activity');
    await screen.findByText('Only');
    jest.useFakeTimers();
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Clear all…' }));
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Clear all' }));
      act(() => jest.advanceTimersByTime(CLEAR_UNDO_MS - 1));
      expect(deletes(fetchMock)).toBe(0);
      act(() => jest.advanceTimersByTime(1));
      expect(screen.getByText('Cleared one notification.')).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
    await waitFor(() => expect(deletes(fetchMock)).toBe(1));
  });
});

function deletes(fetchMock: jest.Mock): number {
  return fetchMock.mock.calls.filter(([url, init]) => String(url).startsWith('/api/notifications') && (init as RequestInit | undefined)?.method === 'DELETE').length;
}
