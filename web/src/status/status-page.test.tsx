import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { installFetch, installUnreachableFetch, removeFetch, type FakeReply } from '../../test/fake-fetch';
import { StatusPage } from './status-page';

const HEALTH_OK: FakeReply = { status: 200, body: { status: 'ok', uptimeSeconds: 360 } };
const ALL_READY: FakeReply = {
  status: 200,
  body: {
    status: 'ready',
    checks: { database: { ok: true, latencyMs: 3.2 }, redis: { ok: true, latencyMs: 0.4 } },
  },
};
const REDIS_DOWN: FakeReply = {
  status: 503,
  body: {
    status: 'not_ready',
    checks: {
      database: { ok: true, latencyMs: 2 },
      redis: { ok: false, error: 'connect ECONNREFUSED 127.0.0.1:6379' },
    },
  },
};

function answer(health: FakeReply, ready: FakeReply) {
  return installFetch((path) => {
    if (path === '/api/health') return health;
    if (path === '/api/ready') return ready;
    return { status: 404, body: { error: { code: 'not_found', message: 'Not found', requestId: 'r' } } };
  });
}

function renderStatus() {
  return render(
    <MemoryRouter initialEntries={['/status']}>
      <StatusPage />
    </MemoryRouter>,
  );
}

function component(name: string) {
  return within(screen.getByRole('listitem', { name }));
}

afterEach(() => {
  removeFetch();
  jest.useRealTimers();
});

describe('StatusPage', () => {
  it('shows every component up with its latency when all is well', async () => {
    answer(HEALTH_OK, ALL_READY);

    renderStatus();

    expect(await screen.findByRole('heading', { name: 'All systems operational' })).toBeInTheDocument();
    expect(component('API').getByText('Up')).toBeInTheDocument();
    expect(component('Database').getByText('Up')).toBeInTheDocument();
    expect(component('Database').getByText('3 ms')).toBeInTheDocument();
    expect(component('Redis').getByText('Up')).toBeInTheDocument();
    expect(component('Redis').getByText('<1 ms')).toBeInTheDocument();
    expect(screen.getByText(/Last checked/)).toBeInTheDocument();
  });

  it('shows a failing dependency down with its error', async () => {
    answer(HEALTH_OK, REDIS_DOWN);

    renderStatus();

    expect(await screen.findByRole('heading', { name: 'Some systems are down' })).toBeInTheDocument();
    expect(component('Redis').getByText('Down')).toBeInTheDocument();
    expect(component('Redis').getByText('connect ECONNREFUSED 127.0.0.1:6379')).toBeInTheDocument();
    expect(component('Redis').getByText('n/a')).toBeInTheDocument();
    expect(component('Database').getByText('Up')).toBeInTheDocument();
    expect(component('API').getByText('Up')).toBeInTheDocument();
  });

  it('shows an error state when the api cannot be reached', async () => {
    installUnreachableFetch();

    renderStatus();

    expect(await screen.findByRole('heading', { name: 'The Tickerbell API is unreachable' })).toBeInTheDocument();
    expect(screen.getByText(/could not be reached/)).toBeInTheDocument();
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.getByRole('button', { name: 'Check now' })).toBeEnabled();
  });

  it('checks again every 30 seconds', async () => {
    jest.useFakeTimers();
    const fetchMock = answer(HEALTH_OK, REDIS_DOWN);
    renderStatus();
    expect(await screen.findByRole('heading', { name: 'Some systems are down' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);

    answer(HEALTH_OK, ALL_READY);
    await act(async () => {
      await jest.advanceTimersByTimeAsync(29_000);
    });
    expect(screen.getByRole('heading', { name: 'Some systems are down' })).toBeInTheDocument();
    await act(async () => {
      await jest.advanceTimersByTimeAsync(1_000);
    });

    expect(screen.getByRole('heading', { name: 'All systems operational' })).toBeInTheDocument();
  });

  it('checks again at once when Check now is pressed', async () => {
    answer(HEALTH_OK, REDIS_DOWN);
    renderStatus();
    expect(await screen.findByRole('heading', { name: 'Some systems are down' })).toBeInTheDocument();

    const fetchMock = answer(HEALTH_OK, ALL_READY);
    fireEvent.click(screen.getByRole('button', { name: 'Check now' }));

    expect(await screen.findByRole('heading', { name: 'All systems operational' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([path]) => path)).toEqual(['/api/health', '/api/ready']);
  });

  it('stops polling when it leaves the page', async () => {
    jest.useFakeTimers();
    const fetchMock = answer(HEALTH_OK, ALL_READY);
    const { unmount } = renderStatus();
    await screen.findByRole('heading', { name: 'All systems operational' });

    unmount();
    await act(async () => {
      await jest.advanceTimersByTimeAsync(120_000);
    });

    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('sets the document title', async () => {
    answer(HEALTH_OK, ALL_READY);

    renderStatus();

    await screen.findByRole('heading', { name: 'All systems operational' });
    expect(document.title).toBe('System status · Tickerbell');
  });
});
