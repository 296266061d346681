import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { currentChart, liveSeries, resetFakeCharts } from '../../test/chart-library';
import { removeFetch } from '../../test/fake-fetch';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';
import { LIVE_TRANSFER, WHALES_RECORDINGS, WHALES_VARIANTS, recordedWhalesApi } from '../../test/whales-api';
import { publishLiveWhale } from './whales-live';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

beforeEach(() => {
  window.localStorage.clear();
  resetFakeCharts();
});
afterEach(() => {
  removeFetch();
  jest.useRealTimers();
});

const V = WHALES_VARIANTS;
const BINANCE = '0x28c6c06298d514db089934071355e5743bf21d60';

async function transfersTable(name = 'Whale transfers') {
  return within(await screen.findByRole('table', { name }));
}

function rowsOf(table: ReturnType<typeof within>): HTMLElement[] {
  return table.getAllByRole('row').slice(1);
}

function cell(row: HTMLElement, label: string): string {
  return row.querySelector(`td[data-label="${label}"]`)?.textContent ?? '';
}

describe('whales live feed', () => {
  it('lists the transfers with amounts, USD, labelled addresses, types and the replay label', async () => {
    const api = recordedWhalesApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/whales');
    expect(await screen.findByRole('heading', { level: 1, name: 'Whale transfers' })).toBeInTheDocument();
    const rows = rowsOf(await transfersTable());
    expect(rows).toHaveLength(4);
    expect(api.calls).toEqual(expect.arrayContaining(['GET /api/whales/transfers', 'GET /api/whales/exchanges']));

    const [eth, usdt, unknown, usdc] = rows as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    expect(cell(eth, 'Amount')).toMatch(/^5,000 ETH@ \$3,420\.00 Simulated/);
    expect(cell(eth, 'USD')).toBe('$17,100,000');
    expect(within(eth).getByRole('link', { name: 'Binance 14' })).toHaveAttribute('href', `/dashboard/whales/addresses/${BINANCE}`);
    expect(within(eth).getByRole('link', { name: '0xde74…5f77' })).toHaveAttribute('href', '/dashboard/whales/addresses/0xde74eef3cfb2dbc8d08a6838a1dcea4a6d775f77');
    expect(cell(eth, 'Type')).toBe('Exchange inflow');
    expect(within(eth).getByRole('link', { name: /^Tx/ })).toHaveAttribute('href', expect.stringMatching(/^https:\/\/etherscan\.io\/tx\/0x/));
    expect(cell(eth, 'Time')).toContain('block 21,000,104');
    expect(cell(usdt, 'Amount')).toContain('25,000,000 USDT');
    expect(cell(usdt, 'Type')).toBe('Exchange outflow');
    // A token without a symbol or price: its contract, and no USD value guessed.
    expect(cell(unknown, 'Amount')).toBe('Amount unknown 0x01f6…4d43');
    expect(cell(unknown, 'USD')).toBe('No price');
    // From 1,000 units up, amounts are whole units.
    expect(cell(usdc, 'Amount')).toContain('1,250,001 USDC');
    expect(screen.getByRole('note')).toHaveTextContent(/Replay data/);
    expect(screen.getByRole('note')).toHaveTextContent('Read up to block 21,000,104');
  });

  it('adds a transfer that arrives over the stream on top, highlighted, and only when it matches the filters', async () => {
    installFakeApi(signedInSession(), recordedWhalesApi());
    renderApp('/dashboard/whales');
    await transfersTable();

    act(() => publishLiveWhale(LIVE_TRANSFER));
    const rows = rowsOf(within(screen.getByRole('table', { name: 'Whale transfers' })));
    expect(rows).toHaveLength(5);
    expect(rows[0]).toHaveClass('whale-row--new');
    expect(cell(rows[0]!, 'Amount')).toContain('1,500 ETH');
    expect(within(rows[0]!).getByText('New')).toBeInTheDocument();
    expect(rows[1]).not.toHaveClass('whale-row--new');
    expect(screen.getByText('1 new transfer since the page was opened')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('Read up to block 21,000,105');

    // The same transfer again (a second worker, a reconnect) is not added twice; a bad one is skipped.
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    act(() => {
      publishLiveWhale(LIVE_TRANSFER);
      publishLiveWhale({ id: 'x' });
    });
    expect(rowsOf(within(screen.getByRole('table', { name: 'Whale transfers' })))).toHaveLength(5);
    expect(error).toHaveBeenCalledWith('Ignoring a whale event that does not parse', expect.any(TypeError));
    error.mockRestore();
  });

  it('leaves out live transfers the filters exclude', async () => {
    installFakeApi(signedInSession(), recordedWhalesApi());
    renderApp('/dashboard/whales?minUsd=1000000000');
    expect(await screen.findByText(/No transfers match these filters yet/)).toBeInTheDocument();
    act(() => publishLiveWhale(LIVE_TRANSFER));
    expect(screen.queryByRole('table', { name: 'Whale transfers' })).not.toBeInTheDocument();
  });

  it('filters by direction from the form and loads older transfers', async () => {
    const api = recordedWhalesApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/whales');
    await transfersTable();
    fireEvent.click(screen.getByRole('button', { name: 'Load older transfers' }));
    await waitFor(() => expect(rowsOf(within(screen.getByRole('table', { name: 'Whale transfers' })))).toHaveLength(5));
    expect(screen.getByText('That is every matching transfer (5).')).toBeInTheDocument();

    const form = within(screen.getByRole('form', { name: 'Feed filters' }));
    fireEvent.change(form.getByLabelText('Direction'), { target: { value: 'exchange_inflow' } });
    fireEvent.click(form.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(rowsOf(within(screen.getByRole('table', { name: 'Whale transfers' })))).toHaveLength(2));
    expect(screen.getByText(/Showing into exchanges/)).toBeInTheDocument();
    expect(api.calls).toContain('GET /api/whales/transfers?direction=exchange_inflow');
  });

  it('refuses a token contract that is not an address before asking', async () => {
    const api = recordedWhalesApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/whales');
    await transfersTable();
    const form = within(screen.getByRole('form', { name: 'Feed filters' }));
    fireEvent.change(form.getByLabelText('Token'), { target: { value: 'other' } });
    fireEvent.change(form.getByLabelText('Token contract'), { target: { value: '0x123' } });
    fireEvent.click(form.getByRole('button', { name: 'Apply' }));
    expect(await form.findByRole('alert')).toHaveTextContent('Enter the token’s contract address');
    expect(api.calls.filter((call) => call.startsWith('GET /api/whales/transfers'))).toHaveLength(1);
  });

  it('shows the loading, empty and error states', async () => {
    let answer: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const empty = recordedWhalesApi([V.feedEmpty]);
    installFakeApi(signedInSession(), async (path, init) => {
      if (path.startsWith('/api/whales/transfers')) await arrived;
      return empty(path, init);
    });
    renderApp('/dashboard/whales');
    expect(await screen.findByText('Loading whale transfers…')).toBeInTheDocument();
    answer();
    expect(await screen.findByText(/No whale transfers are recorded yet/)).toBeInTheDocument();
    expect(screen.getByText(/Live Ethereum mainnet/)).toHaveTextContent('No block has been read yet.');
    removeFetch();

    let failing = true;
    const refused = recordedWhalesApi([V.feedBadLimit]);
    const answered = recordedWhalesApi();
    installFakeApi(signedInSession(), (path, init) => (failing ? refused(path, init) : answered(path, init)));
    renderApp('/dashboard/whales');
    expect(await screen.findByRole('alert')).toHaveTextContent('Whale transfers could not be loaded: Invalid input: minUsd');
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(rowsOf(await transfersTable())).toHaveLength(4);
  });

  it('is in the dashboard navigation', async () => {
    installFakeApi(signedInSession(), recordedWhalesApi());
    renderApp('/dashboard/whales');
    await transfersTable();
    expect(within(screen.getByRole('navigation', { name: 'Dashboard' })).getByRole('link', { name: 'Whales' })).toHaveAttribute('aria-current', 'page');
    expect(within(screen.getByRole('navigation', { name: 'Whale screens' })).getByRole('link', { name: 'Live feed' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('whales watchlist', () => {
  it('lists the watches and adds one with the label, threshold and frequency', async () => {
    const api = recordedWhalesApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/whales/watchlist');
    const table = within(await screen.findByRole('table', { name: 'Watched addresses and their alerts' }));
    expect(rowsOf(table)).toHaveLength(1);
    expect(table.getByRole('link', { name: 'Fund A' })).toHaveAttribute('href', '/dashboard/whales/addresses/0xde74eef3cfb2dbc8d08a6838a1dcea4a6d775f77');
    expect(table.getByText('≥ $5,000,000 · immediately')).toBeInTheDocument();

    const form = within(screen.getByRole('form', { name: 'Watch an address' }));
    fireEvent.change(form.getByLabelText('Address'), { target: { value: '0x817d342132d79cebfd6303e87558d6599f3c3a8b' } });
    fireEvent.change(form.getByLabelText('Your label (optional)'), { target: { value: 'OTC desk' } });
    fireEvent.change(form.getByLabelText('Alert threshold (USD)'), { target: { value: '2,500,000' } });
    fireEvent.change(form.getByLabelText('Alert me'), { target: { value: 'hourly' } });
    fireEvent.change(form.getByLabelText('Time zone'), { target: { value: 'UTC' } });
    fireEvent.click(form.getByRole('button', { name: 'Watch address' }));

    expect(await screen.findByText('Watching OTC desk.')).toBeInTheDocument();
    expect(api.bodies.at(-1)).toEqual({
      address: '0x817d342132d79cebfd6303e87558d6599f3c3a8b',
      customLabel: 'OTC desk',
      alertEnabled: true,
      alertThreshold: '2500000',
      alertFrequency: 'hourly',
      timeZone: 'UTC',
    });
    expect(rowsOf(within(screen.getByRole('table', { name: 'Watched addresses and their alerts' })))).toHaveLength(2);
    expect(screen.getByText('≥ $2,500,000 · hourly digest')).toBeInTheDocument();
    // A fresh, empty form for the next one.
    expect(within(screen.getByRole('form', { name: 'Watch an address' })).getByLabelText('Address')).toHaveValue('');
  });

  it('shows the api’s validation messages beside the fields', async () => {
    installFakeApi(signedInSession(), recordedWhalesApi([V.watchAddBad]));
    renderApp('/dashboard/whales/watchlist');
    const form = within(await screen.findByRole('form', { name: 'Watch an address' }));
    fireEvent.change(form.getByLabelText('Address'), { target: { value: '0x817D342132D79CEBFD6303E87558D6599F3C3A8B' } });
    fireEvent.change(form.getByLabelText('Alert threshold (USD)'), { target: { value: '1.234' } });
    fireEvent.click(form.getByRole('button', { name: 'Watch address' }));
    expect(await form.findByRole('alert')).toHaveTextContent('Check the fields marked below');
    expect(form.getByLabelText('Address')).toHaveAttribute('aria-invalid', 'true');
    expect(form.getByLabelText('Address')).toHaveAccessibleDescription('an Ethereum address: 0x + 40 hex digits, lowercase or EIP-55 checksummed');
    expect(form.getByLabelText('Alert threshold (USD)')).toHaveAccessibleDescription(expect.stringContaining('a USD amount from 0 with at most 2 decimals'));
  });

  it('says when the address is already watched', async () => {
    installFakeApi(signedInSession(), recordedWhalesApi([V.watchAddDuplicate]));
    renderApp('/dashboard/whales/watchlist');
    const form = within(await screen.findByRole('form', { name: 'Watch an address' }));
    fireEvent.change(form.getByLabelText('Address'), { target: { value: '0x817d342132d79cebfd6303e87558d6599f3c3a8b' } });
    fireEvent.click(form.getByRole('button', { name: 'Watch address' }));
    expect(await form.findByRole('alert')).toHaveTextContent('You already watch 0x817d342132d79cebfd6303e87558d6599f3c3a8b');
  });

  it('edits a watch and removes it after confirming', async () => {
    const api = recordedWhalesApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/whales/watchlist');
    await screen.findByRole('table', { name: 'Watched addresses and their alerts' });
    fireEvent.click(screen.getByRole('button', { name: 'Edit Fund A' }));
    const form = within(screen.getByRole('form', { name: 'Edit watch' }));
    expect(form.getByLabelText('Alert threshold (USD)')).toHaveValue('5000000');
    fireEvent.change(form.getByLabelText('Alert threshold (USD)'), { target: { value: '10000000' } });
    fireEvent.change(form.getByLabelText('Alert me'), { target: { value: 'daily' } });
    fireEvent.click(form.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Saved the alerts for Fund A.')).toBeInTheDocument();
    expect(api.calls).toContain('PATCH /api/whales/watchlist/7');
    expect(api.bodies.at(-1)).toEqual({ customLabel: 'Fund A', alertEnabled: true, alertThreshold: '10000000', alertFrequency: 'daily', timeZone: 'Europe/London' });
    expect(screen.getByText('≥ $10,000,000 · daily digest (midnight Europe/London)')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Remove Fund A' }));
    fireEvent.click(within(screen.getByRole('group', { name: 'Remove Fund A?' })).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('You no longer watch Fund A.')).toBeInTheDocument();
    expect(api.calls).toContain('DELETE /api/whales/watchlist/7');
    expect(screen.getByText(/You watch no address yet/)).toBeInTheDocument();
  });
});

describe('whales address, exchanges and research pages', () => {
  it('shows an exchange address with its label, netflow chart, balance changes and transfers, and watches it', async () => {
    const api = recordedWhalesApi([{ ...WHALES_RECORDINGS.watchAdd, body: { ...WHALES_RECORDINGS.watchAdd.body, address: BINANCE, customLabel: null, label: { ...WHALES_RECORDINGS.addressBinance.body.label } } }]);
    installFakeApi(signedInSession(), api);
    renderApp(`/dashboard/whales/addresses/${BINANCE}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Binance 14' })).toBeInTheDocument();
    expect(screen.getByText(BINANCE)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Etherscan (opens in a new tab)' })).toHaveAttribute('href', `https://etherscan.io/address/${BINANCE}`);
    expect(screen.getByTestId('whale-netflow-chart')).toHaveAccessibleName('Daily USD flows into and out of Binance 14');
    const chart = currentChart();
    const [inflow, outflow] = liveSeries(chart, 'Histogram');
    expect(inflow?.data).toHaveLength(4);
    expect(outflow?.data[1]).toEqual({ time: Date.parse('2026-11-25T00:00:00Z') / 1000, value: -5400000.5 });
    expect(liveSeries(chart, 'Line')[0]?.data).toHaveLength(4);
    expect(screen.getByText(/In \$37\.7M, out \$10\.2M, net \+\$27\.5M over 9 transfers \(1 without a price, not in the sums\)/)).toBeInTheDocument();
    const balances = within(screen.getByRole('table', { name: /Amounts received and sent per token/ }));
    expect(rowsOf(balances)[0]).toHaveTextContent('ETH5,000812.34+$14.3M');
    expect(rowsOf(await transfersTable('Transfers of Binance 14'))).toHaveLength(2);

    const form = within(screen.getByRole('form', { name: 'Watch this address' }));
    fireEvent.click(form.getByRole('button', { name: 'Watch address' }));
    expect(await screen.findByText('Watching Binance 14.')).toBeInTheDocument();
    expect(api.bodies.at(-1)).toMatchObject({ address: BINANCE, alertEnabled: true });
    expect(screen.getByRole('button', { name: 'Stop watching' })).toBeInTheDocument();
  });

  it('shows a watched address with the viewer’s label, and says when an address is not one', async () => {
    installFakeApi(signedInSession(), recordedWhalesApi());
    renderApp('/dashboard/whales/addresses/0xde74eef3cfb2dbc8d08a6838a1dcea4a6d775f77');
    expect(await screen.findByRole('heading', { level: 1, name: 'Fund A' })).toBeInTheDocument();
    expect(screen.getByText('≥ $5,000,000 · immediately')).toBeInTheDocument();
    expect(screen.getByText(/No priced transfer in or out of this address/)).toBeInTheDocument();
  });

  it('refuses an address that is not one without asking the api', async () => {
    const api = recordedWhalesApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/whales/addresses/0xnope');
    expect(await screen.findByRole('alert')).toHaveTextContent('“0xnope” is not an Ethereum address');
    expect(api.calls.filter((call) => call.startsWith('GET /api/whales/addresses'))).toEqual([]);
  });

  it('lists the exchanges busiest first and charts the one chosen', async () => {
    const api = recordedWhalesApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/whales/exchanges');
    const table = within(await screen.findByRole('table', { name: /USD flows of each labelled exchange/ }));
    // Busiest first: $25.008M moved at Binance, $24.998M at Kraken.
    expect(rowsOf(table).map((row) => row.querySelector('th')?.textContent)).toEqual(['Binance', 'Kraken', 'Coinbase']);
    expect(cell(rowsOf(table)[0]!, 'Net')).toBe('+$19.5M');
    expect(cell(rowsOf(table)[1]!, 'Net')).toBe('−$25M');
    // The busiest is charted first.
    expect(await screen.findByTestId('whale-netflow-chart')).toHaveAccessibleName('Daily USD flows into and out of Binance');
    expect(liveSeries(currentChart(), 'Histogram')[0]?.data).toHaveLength(4);
    fireEvent.click(table.getByRole('button', { name: 'Kraken' }));
    expect(await screen.findByText('No recorded transfer in or out of Kraken in this window.')).toBeInTheDocument();
    expect(api.calls).toEqual(expect.arrayContaining(['GET /api/whales/netflow?bucket=day&exchange=Binance', 'GET /api/whales/netflow?bucket=day&exchange=Kraken']));
  });

  it('shows the last day’s largest transfers to everyone, with the definitions', async () => {
    installFakeApi(null, recordedWhalesApi());
    renderApp('/research/whales');
    expect(await screen.findByRole('heading', { level: 1, name: 'Whale transfers' })).toBeInTheDocument();
    const rows = rowsOf(await transfersTable('Largest transfers of the last 24 hours'));
    expect(rows.map((row) => cell(row, 'USD'))).toEqual(['$24,997,500', '$17,100,000', '$1,250,001']);
    expect(screen.getByText('Replay data')).toBeInTheDocument();
    const text = screen.getByRole('main').textContent ?? '';
    expect(text).toContain('12 confirmations');
    expect(text).toContain('ETH/USDT one-minute bar');
  });

  it('says when nothing was priced in the last day', async () => {
    installFakeApi(null, recordedWhalesApi([V.largestNone]));
    renderApp('/research/whales');
    expect(await screen.findByText('No priced transfer has been recorded in the last 24 hours yet.')).toBeInTheDocument();
  });
});
