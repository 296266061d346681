import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import type { ExchangeFollowResponse, ExchangeView } from '@tickerbell/jobs/market-hours/shapes';
import { sampleExchanges } from '../../test/market-hours-api';
import { removeFetch, type FakeReply } from '../../test/fake-fetch';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';
import { groupExchangesByRegion, regionOf, sortExchangesByName } from './exchanges-client';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

/** The sample's New York (followed) and London, plus Tokyo and Toronto: codes sort differently from names. */
function exchanges(): ExchangeView[] {
  const [newYork, london] = sampleExchanges() as [ExchangeView, ExchangeView];
  return [
    { ...london, id: 'XLON' },
    { ...newYork, id: 'XNYS' },
    { ...london, id: 'XTKS', name: 'Tokyo Stock Exchange', location: 'Tokyo', timezone: 'Asia/Tokyo', following: false },
    { ...london, id: 'XTSE', name: 'Toronto Stock Exchange', location: 'Toronto', timezone: 'America/Toronto', following: false },
  ];
}

type FollowReply = (id: string, method: string) => FakeReply | Promise<FakeReply>;

/** A signed-in api whose follow routes answer as api/src/market-hours/market-hours.routes.ts does. */
function api(list: ExchangeView[], reply?: FollowReply) {
  const followed = new Set(list.filter((e) => e.following).map((e) => e.id));
  const accept: FollowReply = (id, method) => {
    if (method === 'PUT') followed.add(id);
    else followed.delete(id);
    const body: ExchangeFollowResponse = { id, following: followed.has(id), followedExchangeIds: [...followed].sort() };
    return { status: 200, body };
  };
  return installFakeApi(signedInSession({ name: 'Ada Lovelace' }), (path, init) => {
    if (path === '/api/exchanges') return { status: 200, body: list.map((e) => ({ ...e, following: followed.has(e.id) })) };
    const match = /^\/api\/exchanges\/([A-Z]+)\/follow$/.exec(path);
    if (match?.[1]) return (reply ?? accept)(match[1], init?.method ?? 'GET');
    return { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } };
  });
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

beforeEach(() => {
  window.localStorage.clear();
  jest.mocked(toast).mockClear();
});
afterEach(removeFetch);

describe('exchange order', () => {
  it('sorts by name, not by code, and groups by the region of the time zone', () => {
    expect(sortExchangesByName(exchanges()).map((e) => e.id)).toEqual(['XLON', 'XNYS', 'XTKS', 'XTSE']);
    expect(regionOf('Pacific/Auckland')).toBe('Oceania');
    expect(regionOf('Etc/UTC')).toBe('Other');
    expect(groupExchangesByRegion(exchanges()).map((g) => [g.region, g.exchanges.map((e) => e.id)])).toEqual([
      ['Americas', ['XNYS', 'XTSE']],
      ['Europe', ['XLON']],
      ['Asia', ['XTKS']],
    ]);
  });
});

describe('exchanges page', () => {
  it('shows the lunch break in the hours column: two sessions for Hong Kong, one for New York', async () => {
    const [newYork] = sampleExchanges() as [ExchangeView];
    const hongKong: ExchangeView = {
      ...newYork,
      id: 'XHKG',
      name: 'Hong Kong Exchanges',
      location: 'Hong Kong',
      timezone: 'Asia/Hong_Kong',
      open: '09:30',
      close: '16:00',
      breakStart: '12:00',
      breakEnd: '13:00',
      following: false,
    };
    api([{ ...newYork, id: 'XNYS' }, hongKong]);
    renderApp('/dashboard/exchanges');

    const table = await screen.findByRole('table', { name: 'All exchanges' });
    const hoursOf = (name: string) => within(table).getByRole('rowheader', { name: new RegExp(name) }).closest('tr')?.querySelector('.exchange-table__hours')?.textContent;
    expect(hoursOf('Hong Kong Exchanges')).toMatch(/^09:30–12:00, 13:00–16:00 /);
    expect(hoursOf('New York Stock Exchange')).toMatch(/^09:30–16:00 /);
  });

  it('lists the exchanges by region and name, each with a Follow or Unfollow button', async () => {
    api(exchanges());
    renderApp('/dashboard/exchanges');

    const table = await screen.findByRole('table', { name: 'All exchanges' });
    expect(within(table).getAllByRole('rowheader').map((cell) => cell.firstChild?.textContent)).toEqual([
      'Americas',
      'New York Stock Exchange',
      'Toronto Stock Exchange',
      'Europe',
      'London Stock Exchange',
      'Asia',
      'Tokyo Stock Exchange',
    ]);
    expect(within(table).getByRole('button', { name: 'Unfollow New York Stock Exchange' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(table).getByRole('button', { name: 'Follow Tokyo Stock Exchange' })).toHaveAttribute('aria-pressed', 'false');
    expect(within(table).queryByText('Yes')).not.toBeInTheDocument();
  });

  it('follows with a PUT carrying the csrf token: the button flips at once and is disabled until the api answers', async () => {
    const answer = deferred<FakeReply>();
    const fetchMock = api(exchanges(), () => answer.promise);
    renderApp('/dashboard/exchanges');

    fireEvent.click(await screen.findByRole('button', { name: 'Follow Tokyo Stock Exchange' }));

    const busy = screen.getByRole('button', { name: 'Unfollow Tokyo Stock Exchange' });
    expect(busy).toHaveAttribute('aria-pressed', 'true');
    expect(busy).toBeDisabled();
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === '/api/exchanges/XTKS/follow')).toBe(true));
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/exchanges/XTKS/follow');
    expect(call?.[1]?.method).toBe('PUT');
    expect(new Headers(call?.[1]?.headers).get('x-csrf-token')).toBe('csrf-test');

    answer.resolve({ status: 200, body: { id: 'XTKS', following: true, followedExchangeIds: ['XNYS', 'XTKS'] } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Unfollow Tokyo Stock Exchange' })).toBeEnabled());
    expect(screen.getByRole('button', { name: 'Unfollow Tokyo Stock Exchange' })).toHaveAttribute('aria-pressed', 'true');
    expect(toast).not.toHaveBeenCalled();
  });

  it('unfollows with a DELETE', async () => {
    const fetchMock = api(exchanges());
    renderApp('/dashboard/exchanges');

    fireEvent.click(await screen.findByRole('button', { name: 'Unfollow New York Stock Exchange' }));

    await waitFor(() => expect(screen.getByRole('button', { name: 'Follow New York Stock Exchange' })).toBeEnabled());
    expect(screen.getByRole('button', { name: 'Follow New York Stock Exchange' })).toHaveAttribute('aria-pressed', 'false');
    expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/exchanges/XNYS/follow' && init?.method === 'DELETE')).toBe(true);
  });

  it('rolls back and says why in a toast when the api refuses', async () => {
    api(exchanges(), () => ({ status: 403, body: { error: { code: 'csrf_invalid', message: 'The CSRF token is missing or wrong', requestId: 'r' } } }));
    renderApp('/dashboard/exchanges');

    fireEvent.click(await screen.findByRole('button', { name: 'Follow London Stock Exchange' }));

    await waitFor(() => expect(toast).toHaveBeenCalledWith('Could not follow London Stock Exchange: The CSRF token is missing or wrong', { type: 'error' }));
    const button = screen.getByRole('button', { name: 'Follow London Stock Exchange' });
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(button).toBeEnabled();
  });

  it('keeps the last followed exchange followed when the api refuses to unfollow it (409)', async () => {
    const only = exchanges().map((e) => ({ ...e, following: e.id === 'XNYS' }));
    const message = 'XNYS is the only exchange followed: follow another first, or turn market notifications off in the preferences';
    api(only, () => ({ status: 409, body: { error: { code: 'last_follow', message, requestId: 'r' } } }));
    renderApp('/dashboard/exchanges');

    fireEvent.click(await screen.findByRole('button', { name: 'Unfollow New York Stock Exchange' }));

    await waitFor(() => expect(toast).toHaveBeenCalledWith(`Could not unfollow New York Stock Exchange: ${message}`, { type: 'error' }));
    expect(screen.getByRole('button', { name: 'Unfollow New York Stock Exchange' })).toHaveAttribute('aria-pressed', 'true');
  });
});

describe('overview', () => {
  it('unfollows from the followed exchanges, keeping the row so the change can be undone', async () => {
    const fetchMock = api(exchanges().map((e) => ({ ...e, following: e.id === 'XNYS' || e.id === 'XTKS' })));
    renderApp('/dashboard');
    const table = await screen.findByRole('table', { name: 'Followed exchanges' });
    expect(within(table).getAllByRole('rowheader').map((cell) => cell.firstChild?.textContent)).toEqual(['New York Stock Exchange', 'Tokyo Stock Exchange']);

    fireEvent.click(within(table).getByRole('button', { name: 'Unfollow Tokyo Stock Exchange' }));

    await waitFor(() => expect(within(table).getByRole('button', { name: 'Follow Tokyo Stock Exchange' })).toBeEnabled());
    expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/exchanges/XTKS/follow' && init?.method === 'DELETE')).toBe(true);
    fireEvent.click(within(table).getByRole('button', { name: 'Follow Tokyo Stock Exchange' }));
    await waitFor(() => expect(within(table).getByRole('button', { name: 'Unfollow Tokyo Stock Exchange' })).toBeEnabled());
  });
});
