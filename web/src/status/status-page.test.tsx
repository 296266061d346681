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

const NOW = Date.now();
const minutesAgo = (minutes: number): string => new Date(NOW - minutes * 60_000).toISOString();
const SOURCES_FRESH: FakeReply = {
  status: 200,
  body: {
    status: 'operational',
    checkedAt: minutesAgo(0),
    queues: [],
    sources: [
      { source: 'binance', healthy: true, lastSuccessAt: minutesAgo(1), lastErrorAt: null, lastDataAt: minutesAgo(2), consecutiveFailures: 0 },
      { source: 'cftc', healthy: false, lastSuccessAt: minutesAgo(3 * 24 * 60), lastErrorAt: minutesAgo(5), lastDataAt: minutesAgo(6 * 24 * 60 + 30), consecutiveFailures: 3 },
    ],
  },
};
const NO_SOURCES: FakeReply = { status: 200, body: { status: 'operational', checkedAt: minutesAgo(0), queues: [], sources: [] } };

function answer(health: FakeReply, ready: FakeReply, status: FakeReply = NO_SOURCES) {
  return installFetch((path) => {
    if (path === '/api/health') return health;
    if (path === '/api/ready') return ready;
    if (path === '/api/status') return status;
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

function source(name: string) {
  return within(within(screen.getByRole('region', { name: 'Data sources' })).getByRole('listitem', { name }));
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

  it('shows the API latency as this browser measured the health request, not n/a', async () => {
    answer(HEALTH_OK, ALL_READY);

    renderStatus();

    await screen.findByRole('heading', { name: 'All systems operational' });
    expect(component('API').queryByText('n/a')).toBeNull();
    expect(component('API').getByText(/^(<1|\d+) ms$/)).toBeInTheDocument();
  });

  it('lists each data source with the freshness /api/status reports, and the failing ones', async () => {
    answer(HEALTH_OK, ALL_READY, SOURCES_FRESH);

    renderStatus();

    await screen.findByRole('heading', { name: 'Data sources' });
    expect(source('Binance crypto prices').getByText('Up')).toBeInTheDocument();
    expect(source('Binance crypto prices').getByText(/\(2 min ago\)/)).toHaveAttribute('dateTime', minutesAgo(2));
    expect(source('CFTC futures positioning (COT)').getByText('Failing')).toBeInTheDocument();
    expect(source('CFTC futures positioning (COT)').getByText(/\(6 d ago\)/)).toHaveAttribute('dateTime', minutesAgo(6 * 24 * 60 + 30));
    expect(source('CFTC futures positioning (COT)').getByText('The last 3 fetches failed.')).toBeInTheDocument();
  });

  it('says so when no source has reported yet, or when the freshness cannot be read', async () => {
    answer(HEALTH_OK, ALL_READY, NO_SOURCES);
    const { unmount } = renderStatus();
    expect(await screen.findByText(/No data source has reported yet/)).toBeInTheDocument();
    unmount();

    answer(HEALTH_OK, ALL_READY, { status: 500, body: { error: { code: 'internal', message: 'Something went wrong on our side.', requestId: 'r' } } });
    renderStatus();
    expect(await screen.findByText(/Data-source freshness could not be read: Something went wrong on our side\./)).toBeInTheDocument();
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
    expect(fetchMock).toHaveBeenCalledTimes(3);

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
    expect(fetchMock.mock.calls.map(([path]) => path)).toEqual(['/api/health', '/api/ready', '/api/status']);
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

    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('sets the document title', async () => {
    answer(HEALTH_OK, ALL_READY);

    renderStatus();

    await screen.findByRole('heading', { name: 'All systems operational' });
    expect(document.title).toBe('System status · Tickerbell');
  });
});
