import { fireEvent, screen } from '@testing-library/react';
import { signedInDashboardApi, storeNotifications } from '../../test/dashboard-fakes';
import { removeFetch } from '../../test/fake-fetch';
import { renderApp } from '../../test/render-app';
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

    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(screen.getByText('No notifications.')).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem(NOTIFICATIONS_STORAGE_KEY) ?? 'null')).toEqual([]);
  });
});
