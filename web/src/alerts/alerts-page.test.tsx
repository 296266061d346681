import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FakeAlertsApi, apiAlert, apiLog } from '../../test/alerts-api';
import { removeFetch } from '../../test/fake-fetch';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

beforeEach(() => window.localStorage.clear());
afterEach(removeFetch);

const breakout = apiAlert({ id: 1, name: 'BTC breakout', lastTriggered: '2026-11-21T09:30:00.000Z' });
const rsi = apiAlert({
  id: 2,
  name: 'AAPL oversold',
  symbol: 'AAPL',
  marketType: 'stock',
  condition: { type: 'rsi_below', level: 30, period: 14 },
  interval: '1d',
  frequency: 'every_time',
  cooldownSeconds: 300,
  isActive: false,
  useAudio: true,
});
const expired = apiAlert({ id: 3, name: 'ETH channel', symbol: 'ETHUSDT', condition: { type: 'entering_channel', low: '3000', high: '3200.5' }, expiresAt: '2020-01-01T00:00:00.000Z', frequency: 'once' });

function setup(alerts = [breakout, rsi, expired]) {
  const api = new FakeAlertsApi(alerts);
  installFakeApi(signedInSession(), api.handler);
  renderApp('/dashboard/alerts');
  return api;
}

async function alertsTable() {
  return within(await screen.findByRole('table', { name: 'Your alerts' }));
}

function rowOf(name: string): HTMLElement {
  const row = screen.getByRole('rowheader', { name: new RegExp(name) }).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

function cellsOf(name: string): string[] {
  return within(rowOf(name))
    .getAllByRole('cell')
    .slice(0, 5)
    .map((cell) => cell.textContent ?? '');
}

describe('alerts list', () => {
  it('shows news alerts in words: which news, and per item or the hourly digest', async () => {
    setup([
      apiAlert({ id: 4, name: 'BTC ETF news', condition: { type: 'news', scope: 'keywords', keywords: ['ETF'], digest: false }, frequency: 'every_time' }),
      apiAlert({ id: 5, name: 'AAPL filings', symbol: 'AAPL', marketType: 'stock', condition: { type: 'news', scope: 'filings', digest: true }, frequency: 'once' }),
    ]);
    await alertsTable();
    expect(cellsOf('BTC ETF news').slice(0, 3)).toEqual(['BTCUSDT', 'News naming “ETF”', 'Every item']);
    expect(cellsOf('AAPL filings').slice(0, 3)).toEqual(['AAPL', 'SEC filings, hourly digest', 'Hourly digest']);
  });

  it('lists each alert with its symbol, condition in words, frequency, status and last firing', async () => {
    setup();
    const table = await alertsTable();

    expect(table.getAllByRole('rowheader').map((cell) => cell.firstChild?.textContent)).toEqual(['BTC breakout', 'AAPL oversold', 'ETH channel']);
    expect(cellsOf('BTC breakout')).toEqual(['BTCUSDT', 'Crosses up through 70000', 'Once per day', 'Active', expect.stringMatching(/2026/)]);
    expect(within(rowOf('BTC breakout')).getByText(/2026/).closest('time')).toHaveAttribute('dateTime', '2026-11-21T09:30:00.000Z');
    expect(cellsOf('AAPL oversold')).toEqual(['AAPL', 'RSI(14) below 30 (1d bars)', 'Every time, cooldown 300 s', 'Inactive', 'Never']);
    expect(within(rowOf('AAPL oversold')).getByText('Spoken')).toBeInTheDocument();
    expect(cellsOf('ETH channel')).toEqual(['ETHUSDT', 'Enters the 3000–3200.5 channel', 'Once', 'Expired', 'Never']);
    // An expired alert cannot be switched back on from the list.
    expect(within(rowOf('ETH channel')).getByRole('switch', { name: 'Active: ETH channel' })).toBeDisabled();
    expect(within(rowOf('BTC breakout')).getByRole('switch', { name: 'Active: BTC breakout' })).toBeChecked();
  });

  it('says when an active technical alert is checked next (its bar’s close) instead of a bare “Never”', async () => {
    const hourly = apiAlert({ id: 4, name: 'BTC RSI', condition: { type: 'rsi_above', level: 70, period: 14 }, interval: '1h', frequency: 'every_time' });
    setup([hourly, rsi, breakout]);
    await alertsTable();

    const cell = within(rowOf('BTC RSI')).getAllByRole('cell')[4];
    expect(cell).toHaveTextContent(/^Never\s*Checked when each 1h bar closes: next at /);
    const next = cell?.querySelector('time')?.getAttribute('dateTime') ?? '';
    expect(next).toMatch(/T\d\d:00:00\.000Z$/);
    const wait = Date.parse(next) - Date.now();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(3_600_000);
    // Price alerts are checked on every tick, and an inactive alert is not checked at all.
    expect(within(rowOf('BTC breakout')).queryByText(/Checked when/)).not.toBeInTheDocument();
    expect(within(rowOf('AAPL oversold')).queryByText(/Checked when/)).not.toBeInTheDocument();
  });

  it('is in the dashboard navigation', async () => {
    setup();
    const nav = within(await screen.findByRole('navigation', { name: 'Dashboard' }));
    expect(nav.getByRole('link', { name: 'Alerts' })).toHaveAttribute('aria-current', 'page');
  });

  it('filters to active alerts only', async () => {
    setup();
    const table = await alertsTable();

    fireEvent.click(screen.getByRole('radio', { name: 'Active only' }));

    expect(table.getAllByRole('rowheader')).toHaveLength(1);
    expect(table.getByRole('rowheader', { name: /BTC breakout/ })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: 'All alerts' }));
    expect(table.getAllByRole('rowheader')).toHaveLength(3);
  });

  it('says so when there are no alerts', async () => {
    setup([]);
    expect(await screen.findByText('You have no alerts yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('explains an empty active filter', async () => {
    setup([rsi]);
    await alertsTable();
    fireEvent.click(screen.getByRole('radio', { name: 'Active only' }));
    expect(screen.getByText(/No active alerts/)).toBeInTheDocument();
  });

  it('switches an alert off with a PATCH carrying the csrf token', async () => {
    const api = setup();
    await alertsTable();

    fireEvent.click(within(rowOf('BTC breakout')).getByRole('switch', { name: 'Active: BTC breakout' }));

    await waitFor(() => expect(cellsOf('BTC breakout')[3]).toBe('Inactive'));
    expect(api.calls('PATCH')).toEqual([{ method: 'PATCH', path: '/api/alerts/1', body: { isActive: false }, csrf: 'csrf-test' }]);
    expect(within(rowOf('BTC breakout')).getByRole('switch')).not.toBeChecked();
  });

  it('shows the plan-limit message when switching on would exceed the plan', async () => {
    const api = setup();
    await alertsTable();
    api.nextWriteReply = {
      status: 403,
      body: { error: { code: 'plan_limit', message: 'Your free plan allows 5 active alerts; you have 5.', details: { plan: 'free', limit: 5, active: 5 }, requestId: 'r' } },
    };

    fireEvent.click(within(rowOf('AAPL oversold')).getByRole('switch', { name: 'Active: AAPL oversold' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your free plan allows 5 active alerts; you have 5.');
    expect(within(alert).getByRole('link', { name: 'Compare plans' })).toHaveAttribute('href', '/pricing');
    expect(cellsOf('AAPL oversold')[3]).toBe('Inactive');
    expect(within(rowOf('AAPL oversold')).getByRole('switch')).not.toBeChecked();
  });

  it('deletes only after confirmation', async () => {
    const api = setup();
    await alertsTable();

    fireEvent.click(within(rowOf('AAPL oversold')).getByRole('button', { name: 'Delete AAPL oversold' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Delete “AAPL oversold”?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(api.calls('DELETE')).toHaveLength(0);

    fireEvent.click(within(rowOf('AAPL oversold')).getByRole('button', { name: 'Delete AAPL oversold' }));
    dialog = screen.getByRole('alertdialog', { name: 'Delete “AAPL oversold”?' });
    // Esc closes the confirmation too.
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    fireEvent.click(within(rowOf('AAPL oversold')).getByRole('button', { name: 'Delete AAPL oversold' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete alert' }));

    await waitFor(() => expect(screen.queryByRole('rowheader', { name: /AAPL oversold/ })).not.toBeInTheDocument());
    expect(api.calls('DELETE')).toEqual([{ method: 'DELETE', path: '/api/alerts/2', body: undefined, csrf: 'csrf-test' }]);
    expect(screen.getByRole('status')).toHaveTextContent('Deleted “AAPL oversold”.');
  });

  it('loads older alerts page by page with “Load more alerts” until nextBefore is null', async () => {
    // 105 alerts, newest (id 105) first: one page of 100, then 5.
    const many = Array.from({ length: 105 }, (_, i) => apiAlert({ id: 105 - i, name: `Alert ${105 - i}` }));
    const api = setup(many);
    const table = await alertsTable();
    const names = () => table.getAllByRole('rowheader').map((cell) => cell.firstChild?.textContent);

    expect(names()).toHaveLength(100);
    expect(names()[0]).toBe('Alert 105');
    expect(names()[99]).toBe('Alert 6');
    expect(api.calls('GET').map((call) => call.path)).toEqual(['/api/alerts?limit=100']);

    fireEvent.click(screen.getByRole('button', { name: 'Load more alerts' }));

    await waitFor(() => expect(names()).toHaveLength(105));
    expect(names().slice(100)).toEqual(['Alert 5', 'Alert 4', 'Alert 3', 'Alert 2', 'Alert 1']);
    expect(api.calls('GET').map((call) => call.path)).toEqual(['/api/alerts?limit=100', '/api/alerts?limit=100&before=6']);
    expect(screen.queryByRole('button', { name: 'Load more alerts' })).not.toBeInTheDocument();
  });

  it('offers no “Load more alerts” when the first page is the whole list', async () => {
    setup();
    await alertsTable();
    expect(screen.queryByRole('button', { name: 'Load more alerts' })).not.toBeInTheDocument();
  });

  it('says why the list could not be loaded', async () => {
    installFakeApi(signedInSession(), (path) =>
      path.startsWith('/api/alerts?') ? { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong on our side', requestId: 'r' } } } : { status: 404 },
    );
    renderApp('/dashboard/alerts');
    expect(await screen.findByRole('alert')).toHaveTextContent('Alerts could not be loaded: Something went wrong on our side');
  });
});

describe('alert history', () => {
  it('shows the firings newest first and loads older pages on demand', async () => {
    const api = setup();
    const logs = Array.from({ length: 25 }, (_, i) => apiLog(i + 1));
    logs[0] = apiLog(1, { webhookStatus: 'delivered', webhookAttempts: 1 });
    logs[1] = apiLog(2, { webhookStatus: 'failed', webhookAttempts: 6, webhookLastError: 'HTTP 500', wasNotified: false });
    api.logs.set(1, logs);
    await alertsTable();

    fireEvent.click(within(rowOf('BTC breakout')).getByRole('button', { name: 'History of BTC breakout' }));

    const history = within(await screen.findByRole('table', { name: 'Firings of BTC breakout, newest first' }));
    const rows = () => history.getAllByRole('row').slice(1);
    expect(rows()).toHaveLength(20);
    expect(api.calls('GET', '/api/alerts/1/logs').map((call) => call.path)).toEqual(['/api/alerts/1/logs?limit=20']);
    const first = within(rows()[0]).getAllByRole('cell');
    expect(first.map((cell) => cell.textContent).slice(1)).toEqual(['70001.5', 'BTC breakout: BTCUSDT crossed up through 70000 at 70001.5', 'Yes', 'Delivered']);
    expect(first[0].querySelector('time')).toHaveAttribute('dateTime', logs[0].triggeredAt);
    const second = within(rows()[1]).getAllByRole('cell');
    expect(second[3]).toHaveTextContent('No');
    expect(second[4]).toHaveTextContent('Failed after 6 attempts');
    expect(second[4]).toHaveAttribute('title', 'HTTP 500');

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));

    await waitFor(() => expect(rows()).toHaveLength(25));
    expect(api.calls('GET', '/api/alerts/1/logs').map((call) => call.path)).toEqual(['/api/alerts/1/logs?limit=20', '/api/alerts/1/logs?limit=20&before=20']);
    expect(within(rows()[24]).getAllByRole('cell')[1]).toHaveTextContent('70025.5');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('says when an alert has not fired yet', async () => {
    setup();
    await alertsTable();
    fireEvent.click(within(rowOf('AAPL oversold')).getByRole('button', { name: 'History of AAPL oversold' }));
    expect(await screen.findByText('This alert has not fired yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });
});
