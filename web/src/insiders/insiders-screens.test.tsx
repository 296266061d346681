import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { fakeCharts, liveSeries, resetFakeCharts } from '../../test/chart-library';
import { removeFetch, type FakeHandler } from '../../test/fake-fetch';
import { INSIDERS_RECORDINGS, recordedInsidersApi, type Recording } from '../../test/insiders-api';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';
import { risingBars } from '../../test/watchlists-charts-api';
import { LIVE_POLL_MS, filterSummary, mergeFirstPage } from './insiders-screener-page';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

// The recorder stands in for lightweight-charts (test/chart-library.ts); the markers plugin of
// lightweight-charts 5 is recorded here the same way.
const markerCalls: unknown[][] = [];
jest.mock('lightweight-charts', () => ({
  ...jest.requireActual('lightweight-charts'),
  createSeriesMarkers: (_series: unknown, markers: unknown[]) => {
    markerCalls.push(markers);
    return { detach: () => undefined, setMarkers: () => undefined };
  },
}));

beforeEach(() => {
  window.localStorage.clear();
  resetFakeCharts();
  markerCalls.length = 0;
});
afterEach(() => {
  removeFetch();
  jest.useRealTimers();
});

const R = INSIDERS_RECORDINGS;

/** The recordings, with one answer replaced (a recorded answer of another request served for this one). */
function serving(request: string, recording: Recording): Recording {
  return { ...recording, request };
}

async function tradesTable(name = 'Insider transactions') {
  return within(await screen.findByRole('table', { name }));
}

function rowsOf(table: ReturnType<typeof within>): HTMLElement[] {
  return table.getAllByRole('row').slice(1);
}

function insiderOf(row: HTMLElement): string {
  const cell = row.querySelector('td[data-label="Insider"] a');
  return cell?.textContent ?? '';
}

describe('insiders screener', () => {
  it('lists every line with its company, insider, code, values and the replay labels', async () => {
    const api = recordedInsidersApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/insiders');
    expect(await screen.findByRole('heading', { level: 1, name: 'Insider trades' })).toBeInTheDocument();
    const table = await tradesTable();

    expect(api.calls).toEqual(['GET /api/insiders/screener']);
    const rows = rowsOf(table);
    expect(rows).toHaveLength(44);
    expect(rows.slice(0, 3).map(insiderOf)).toEqual(['AFFILIATE THREE', 'DIRECTOR TWO', 'OFFICER ONE']);
    const air = within(rows.find((row) => row.textContent?.includes('AAR CORP'))!);
    expect(air.getByRole('link', { name: 'AIR' })).toHaveAttribute('href', '/dashboard/insiders/companies/AIR');
    expect(air.getByRole('link', { name: 'Garascia Jessica A.' })).toHaveAttribute('href', '/dashboard/insiders/insiders/0001806647');
    expect(air.getByText('Senior VP, GC, CAO & Secretary')).toBeInTheDocument();
    expect(air.getByTitle('S: Open-market or private sale')).toHaveTextContent('S Sell (Open-market or private sale)');
    // Filed 2025-01-10T21:07:30Z: 16:07 in New York, as EDGAR shows it.
    expect(rows.find((row) => row.textContent?.includes('AAR CORP'))!.querySelector('td[data-label="Filed"]')).toHaveTextContent('2025-01-1016:07 ET · Form 4');
    expect(air.getByText('$100,355')).toBeInTheDocument();
    expect(air.getByText('$66.903')).toBeInTheDocument();
    expect(air.getByText('weighted avg.')).toBeInTheDocument();
    expect(air.getByRole('link', { name: /Form 4/ })).toHaveAttribute('href', expect.stringContaining('sec.gov'));
    // The simulated purchases say so, on the row and above the table.
    expect(within(rows[0]!).getByText('Simulated')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(/Not live data/);
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/insiders/screener?format=csv');
  });

  it('applies the presets and says which one is on', async () => {
    const api = recordedInsidersApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/insiders');
    await tradesTable();

    fireEvent.click(screen.getByRole('button', { name: 'Latest purchases' }));
    await waitFor(() => expect(rowsOf(within(screen.getByRole('table', { name: 'Insider transactions' })))).toHaveLength(4));
    expect(screen.getByRole('button', { name: 'Latest purchases' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/insiders/screener?codes=P&sort=filedAt&order=desc&format=csv');

    fireEvent.click(screen.getByRole('button', { name: 'Cluster buys' }));
    await waitFor(() => expect(rowsOf(within(screen.getByRole('table', { name: 'Insider transactions' })))).toHaveLength(3));

    fireEvent.click(screen.getByRole('button', { name: 'Officer buys ≥ $25k' }));
    await waitFor(() => expect(rowsOf(within(screen.getByRole('table', { name: 'Insider transactions' }))).map(insiderOf)).toEqual(['DIRECTOR TWO', 'OFFICER ONE']));
    expect(api.calls).toEqual([
      'GET /api/insiders/screener',
      'GET /api/insiders/screener?codes=P&order=desc&sort=filedAt',
      'GET /api/insiders/screener?clusterOnly=true&codes=P&order=desc&sort=filedAt',
      'GET /api/insiders/screener?codes=P&minValue=25000&order=desc&roles=officer%2Cdirector&sort=filedAt',
    ]);
  });

  it('filters and sorts from the form, and says when nothing matches', async () => {
    const api = recordedInsidersApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/insiders');
    await tradesTable();
    const form = within(screen.getByRole('form', { name: 'Screener filters' }));
    fireEvent.change(form.getByLabelText('Ticker'), { target: { value: 'snow' } });
    fireEvent.click(form.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(api.calls.at(-1)).toBe('GET /api/insiders/screener?ticker=SNOW'));
    // No recording of that one: the sort below asks for the recorded one.
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'totalValue' } });
    await waitFor(() => expect(rowsOf(within(screen.getByRole('table', { name: 'Insider transactions' })))).toHaveLength(7));
    expect(api.calls.at(-1)).toBe('GET /api/insiders/screener?sort=totalValue&ticker=SNOW');
    expect(screen.getByLabelText('Order')).toHaveDisplayValue('Largest first');
  }, 15_000);

  it('shows the empty, loading and error states', async () => {
    // The answer waits until the test lets it through: the page says it is loading meanwhile.
    let answer: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const recorded = recordedInsidersApi();
    installFakeApi(signedInSession(), async (path, init) => {
      if (path.startsWith('/api/insiders/')) await arrived;
      return recorded(path, init);
    });
    renderApp('/dashboard/insiders?ticker=WDAY&codes=P');
    expect(await screen.findByText('Loading insider trades…')).toBeInTheDocument();
    answer();
    expect(await screen.findByText(/No trades match these filters/)).toBeInTheDocument();
    expect(screen.queryByText('Loading insider trades…')).not.toBeInTheDocument();
    removeFetch();

    // A refused request (the api's recorded 400 served for this one), then the real answer on "Try again".
    let failing = true;
    const refused = recordedInsidersApi([serving('GET /api/insiders/screener', R.screenerBadFilter)]);
    const answered = recordedInsidersApi();
    installFakeApi(signedInSession(), (path, init) => (failing ? refused(path, init) : answered(path, init)));
    renderApp('/dashboard/insiders');
    expect(await screen.findByRole('alert')).toHaveTextContent('Insider trades could not be loaded: Invalid input: codes');
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(rowsOf(await tradesTable())).toHaveLength(44);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('asks for the first page every 30 s and highlights the lines not seen before', async () => {
    jest.useFakeTimers();
    let refreshed = false;
    const before = recordedInsidersApi([R.screenerLatestPurchasesBefore]);
    const after = recordedInsidersApi([R.screenerLatestPurchases]);
    const handler: FakeHandler = (path, init) => (refreshed ? after(path, init) : before(path, init));
    installFakeApi(signedInSession(), handler);
    renderApp('/dashboard/insiders?codes=P&sort=filedAt&order=desc');
    const table = await tradesTable();
    expect(rowsOf(table).map(insiderOf)).toEqual(['DIRECTOR TWO', 'OFFICER ONE', 'LEMESEVSKI ELIZABETH']);

    refreshed = true;
    await act(async () => {
      await jest.advanceTimersByTimeAsync(LIVE_POLL_MS);
    });
    const rows = rowsOf(within(screen.getByRole('table', { name: 'Insider transactions' })));
    expect(rows.map(insiderOf)).toEqual(['AFFILIATE THREE', 'DIRECTOR TWO', 'OFFICER ONE', 'LEMESEVSKI ELIZABETH']);
    expect(rows[0]).toHaveClass('insider-row--new');
    expect(within(rows[0]!).getByText('New')).toBeInTheDocument();
    expect(rows[1]).not.toHaveClass('insider-row--new');
    expect(screen.getByText('1 new trade since the page was opened')).toBeInTheDocument();
    expect(after.calls).toEqual(['GET /api/insiders/screener?codes=P&order=desc&sort=filedAt']);
  });

  it('sums up the filters beside their fold', () => {
    expect(filterSummary({})).toBe('(none)');
    expect(filterSummary({ codes: ['P'], roles: ['officer', 'director'], minValue: 25000, clusterOnly: true, tradedFrom: '2025-01-01' })).toBe(
      '(codes P · officer or director · ≥ $25,000 · traded 2025-01-01 to … · cluster buys)',
    );
  });

  it('merges a refreshed first page over what is shown, keeping the next cursor', () => {
    const before = { rows: [{ id: '2' }, { id: '1' }], nextCursor: 'c1', replay: false };
    const fresh = { rows: [{ id: '3' }, { id: '2' }], nextCursor: 'c2', replay: true };
    const merged = mergeFirstPage(fresh as never, before as never);
    expect([merged.rows.map((row) => row.id), merged.nextCursor, merged.replay]).toEqual([['3', '2', '1'], 'c1', true]);
  });

  it('is in the dashboard navigation', async () => {
    installFakeApi(signedInSession(), recordedInsidersApi());
    renderApp('/dashboard/insiders');
    await tradesTable();
    expect(within(screen.getByRole('navigation', { name: 'Dashboard' })).getByRole('link', { name: 'Insiders' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('insiders company page', () => {
  it('shows the cluster buy, the analytics, the trades on a timeline (no market) and every line', async () => {
    installFakeApi(signedInSession(), recordedInsidersApi());
    renderApp('/dashboard/insiders/companies/NCV');
    expect(await screen.findByRole('heading', { level: 1, name: 'NCV NICHOLAS APPLEGATE CONVERTIBLE & INCOME FUND' })).toBeInTheDocument();
    expect(screen.getByText(/3 insiders bought on the open market in the 30 days/)).toBeInTheDocument();
    expect(screen.getByText(/3 insiders bought \$239\.2k on the open market in 30 days: DIRECTOR TWO \(Director\)/)).toBeInTheDocument();
    expect(screen.getByText('Bullish')).toHaveClass('insider-sentiment--bullish');
    expect(screen.getByText(/NCV has no market in Tickerbell’s price feed/)).toBeInTheDocument();
    // The year up to the latest trade is drawn; the 2007 purchase is named below it.
    expect(screen.getByRole('img', { name: 'Insider buys and sells over time: 2026-11-17: bought $60.5K (OFFICER ONE); 2026-11-18: bought $148.8K (DIRECTOR TWO); 2026-11-19: bought $29.9K (AFFILIATE THREE)' })).toBeInTheDocument();
    expect(screen.getByText('Earlier, outside this year: 2007-08-17: bought $3.5K (LEMESEVSKI ELIZABETH).')).toBeInTheDocument();
    expect(rowsOf(await tradesTable('Insider transactions of NCV'))).toHaveLength(4);
    expect(screen.getByRole('img', { name: /Sentiment score from 2026-11-17 to 2026-11-20, latest \+100/ })).toBeInTheDocument();
    expect(fakeCharts).toHaveLength(0);
  });

  it('follows the company with the chosen settings and says so', async () => {
    const fetchMock = installFakeApi(signedInSession(), recordedInsidersApi());
    renderApp('/dashboard/insiders/companies/NCV');
    const form = within(await screen.findByRole('form', { name: 'Follow NCV' }));
    expect(form.getByText(/Not following/)).toBeInTheDocument();
    fireEvent.change(form.getByLabelText('Minimum purchase (USD)'), { target: { value: '50000' } });
    fireEvent.click(form.getByRole('checkbox', { name: /Unusual activity/ }));
    fireEvent.click(form.getByRole('button', { name: 'Follow NCV' }));

    expect(await form.findByRole('status')).toHaveTextContent('Following NCV.');
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(put?.[0]).toBe('/api/insiders/follows/NCV');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ notifyClusterBuy: true, officerBuyMinValue: 50000, notifyUnusualActivity: false });
    expect(form.getByRole('button', { name: 'Save settings' })).toBeInTheDocument();
    expect(form.getByText('Officer and director purchases of $50,000 or more notify you.')).toBeInTheDocument();
  });

  it('refuses a minimum that is not a dollar amount before sending anything', async () => {
    const fetchMock = installFakeApi(signedInSession(), recordedInsidersApi());
    renderApp('/dashboard/insiders/companies/NCV');
    const form = within(await screen.findByRole('form', { name: 'Follow NCV' }));
    fireEvent.change(form.getByLabelText('Minimum purchase (USD)'), { target: { value: 'lots' } });
    fireEvent.click(form.getByRole('button', { name: 'Follow NCV' }));
    expect(await form.findByRole('alert')).toHaveTextContent('Enter the minimum purchase value in US dollars');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
  });

  it('draws the daily candles of its market with a marker on each day insiders sold', async () => {
    const bars = risingBars(30, '2022-11-28T00:00:00.000Z', 86_400_000);
    installFakeApi(signedInSession(), (path, init) => {
      if (path === '/api/markets/SNOW/bars?interval=1d&limit=300') return { status: 200, body: { symbol: 'SNOW', interval: '1d', simulated: true, bars } };
      return recordedInsidersApi()(path, init);
    });
    renderApp('/dashboard/insiders/companies/SNOW');
    expect(await screen.findByTestId('insider-price-chart')).toBeInTheDocument();
    await waitFor(() => expect(markerCalls.length).toBeGreaterThan(0));
    const chart = fakeCharts.at(-1)!;
    expect(liveSeries(chart, 'Candlestick')[0]?.data).toHaveLength(30);
    expect(markerCalls.at(-1)).toEqual([
      { time: Date.parse('2022-12-13T00:00:00Z') / 1000, position: 'aboveBar', shape: 'arrowDown', color: expect.any(String), text: 'Sell $30.4M' },
    ]);
    expect(screen.getByText('Simulated data')).toBeInTheDocument();
    expect(screen.getByText(/2022-12-13: sold \$30\.4M \(Scarpelli Michael\)/)).toBeInTheDocument();
  });

  it('says when no company has that ticker', async () => {
    installFakeApi(signedInSession(), recordedInsidersApi());
    renderApp('/dashboard/insiders/companies/NOPE');
    expect(await screen.findByRole('alert')).toHaveTextContent('No company with the ticker or CIK “NOPE” is known to Tickerbell.');
  });
});

describe('insiders insider page and research page', () => {
  it('shows an insider with the companies reported on and the lines', async () => {
    installFakeApi(signedInSession(), recordedInsidersApi());
    renderApp('/dashboard/insiders/insiders/0001402349');
    expect(await screen.findByRole('heading', { level: 1, name: 'Scarpelli Michael' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'SNOW Snowflake Inc.' })).toHaveAttribute('href', '/dashboard/insiders/companies/SNOW');
    expect(screen.getByText('Chief Financial Officer')).toBeInTheDocument();
    expect(rowsOf(await tradesTable('Transactions of Scarpelli Michael'))).toHaveLength(7);
  });

  it('shows the latest cluster buys to everyone, with the buyers and the definitions', async () => {
    installFakeApi(null, recordedInsidersApi());
    renderApp('/research/insiders');
    expect(await screen.findByRole('heading', { level: 1, name: 'Insider cluster buys' })).toBeInTheDocument();
    const list = within(await screen.findByRole('list', { name: 'Buyers of NCV' }));
    expect(list.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'DIRECTOR TWO Director · $148.8K · last buy 2026-11-18',
      'OFFICER ONE Officer · $60.5K · last buy 2026-11-17',
      'AFFILIATE THREE Other · $29.9K · last buy 2026-11-19',
    ]);
    expect(screen.getByText('Demo data')).toHaveAttribute('title', expect.stringContaining('simulated variants'));
    expect(screen.getByText(/3 insiders/).closest('p')).toHaveTextContent('3 insiders bought $239.2K on the open market in the 30 days to 2026-11-20 · sentiment +100');
    const text = screen.getByRole('main').textContent ?? '';
    expect(text).toContain('100 × (weighted buys − weighted sells) ÷ (weighted buys + weighted sells)');
    expect(text).toContain('officers 1.0, directors 0.8, 10% owners 0.5, others 0.3');
    expect(text).toContain('at least 3 different insiders');
  });

  it('says when there is no cluster buy yet', async () => {
    installFakeApi(null, recordedInsidersApi([R.clusterBuysNone]));
    renderApp('/research/insiders');
    expect(await screen.findByText(/No cluster buy has been found yet/)).toBeInTheDocument();
  });
});
