import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { removeFetch } from '../../test/fake-fetch';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';
import { quote, watchlistView, watchlistsChartsFake, type WatchlistsChartsFake } from '../../test/watchlists-charts-api';
import { publishLivePrice } from '../prices/live-prices';
import { moveItem, parseWatchlists, watchlistNameOfFile } from './watchlists-client';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

beforeAll(() => {
  // jsdom's Blob lacks text(), which every browser has: read it the older way.
  if (typeof Blob.prototype.text !== 'function') {
    Blob.prototype.text = function text(this: Blob): Promise<string> {
      return new Promise((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error);
        reader.readAsText(this);
      });
    };
  }
});
beforeEach(() => window.localStorage.clear());
afterEach(removeFetch);

function setUp(watchlists = [watchlistView(1, 'Crypto', ['BTCUSDT', 'ETHUSDT', 'SOLUSDT']), watchlistView(2, 'Stocks', ['AAPL'])]): WatchlistsChartsFake {
  const fake = watchlistsChartsFake({ watchlists });
  fake.quotes.set('BTCUSDT', quote('BTCUSDT', '60740.5', '2.345'));
  fake.quotes.set('ETHUSDT', quote('ETHUSDT', '3012.1', '-1.2'));
  fake.quotes.set('AAPL', quote('AAPL', '231.4', '0.4', false));
  installFakeApi(signedInSession(), fake.handler);
  return fake;
}

async function itemsTable() {
  return within(await screen.findByRole('table', {}, { timeout: 5000 }));
}

/** The symbols of the table, top to bottom. */
function symbols(): string[] {
  return screen.queryAllByRole('rowheader').map((cell) => cell.querySelector('a')?.textContent ?? '');
}

function rowOf(symbol: string): HTMLElement {
  const row = screen.getByRole('link', { name: symbol }).closest('tr');
  if (!row) throw new Error(`no row for ${symbol}`);
  return row;
}

describe('watchlists client', () => {
  it('reads the api’s { watchlists } answer with items in their order', () => {
    const [list] = parseWatchlists({ watchlists: [{ ...watchlistView(1, 'A', ['BTCUSDT', 'ETHUSDT']), items: [...watchlistView(1, 'A', ['BTCUSDT', 'ETHUSDT']).items].reverse() }] });
    expect(list?.items.map((item) => item.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(() => parseWatchlists({ lists: [] })).toThrow(TypeError);
  });

  it('moves an item and renumbers the order', () => {
    const items = watchlistView(1, 'A', ['BTCUSDT', 'ETHUSDT', 'SOLUSDT']).items;
    expect(moveItem(items, 0, 2).map((item) => [item.symbol, item.order])).toEqual([
      ['ETHUSDT', 0],
      ['SOLUSDT', 1],
      ['BTCUSDT', 2],
    ]);
    expect(watchlistNameOfFile('crypto majors.CSV')).toBe('crypto majors');
    expect(watchlistNameOfFile('.csv')).toBe('Imported watchlist');
  });
});

describe('watchlists page', () => {
  it('shows each market on its own tick: forex in pips, yen pairs and stocks in cents, ES in quarter points', async () => {
    const base = watchlistView(1, 'Across markets', ['AAPL']);
    const items = (
      [
        ['EURUSD', 'Euro / US Dollar', 'forex'],
        ['USDJPY', 'US Dollar / Japanese Yen', 'forex'],
        ['AAPL', 'Apple Inc.', 'stock'],
        ['ES', 'E-mini S&P 500 Futures', 'futures'],
        ['DOGEUSDT', 'Dogecoin / Tether', 'crypto'],
      ] as const
    ).map(([symbol, name, type], order) => ({ id: 100 + order, symbol, name, type, order }));
    const fake = watchlistsChartsFake({ watchlists: [{ ...base, items }] });
    fake.quotes.set('EURUSD', quote('EURUSD', '1.084321', '0.12'));
    fake.quotes.set('USDJPY', quote('USDJPY', '150.2345', '-0.3'));
    fake.quotes.set('AAPL', quote('AAPL', '231.4', '0.4'));
    fake.quotes.set('ES', quote('ES', '5800.3', '0.05'));
    fake.quotes.set('DOGEUSDT', quote('DOGEUSDT', '0.153456', '1'));
    installFakeApi(signedInSession(), fake.handler);
    renderApp('/dashboard/watchlists');
    await itemsTable();
    await waitFor(() => expect(screen.getByTestId('price-EURUSD')).toHaveTextContent('1.0843'));
    expect(screen.getByTestId('price-USDJPY')).toHaveTextContent('150.23');
    expect(screen.getByTestId('price-AAPL')).toHaveTextContent('231.40');
    expect(screen.getByTestId('price-ES')).toHaveTextContent('5,800.25');
    expect(screen.getByTestId('price-DOGEUSDT')).toHaveTextContent('0.15346');
  });

  it('shows the first list with its prices, 24 h change, chart links and the simulated-data badge', async () => {
    const fake = setUp();
    renderApp('/dashboard/watchlists');
    await itemsTable();

    expect(screen.getByRole('heading', { level: 2, name: 'Crypto' })).toBeInTheDocument();
    expect(symbols()).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
    await waitFor(() => expect(screen.getByTestId('price-BTCUSDT')).toHaveTextContent('60,740.50'));
    expect(within(rowOf('BTCUSDT')).getByText('+2.35%')).toHaveClass('price-change--up');
    expect(within(rowOf('ETHUSDT')).getByText('−1.20%')).toHaveClass('price-change--down');
    // No quote yet for SOLUSDT.
    expect(screen.getByTestId('price-SOLUSDT')).toHaveTextContent('—');
    expect(screen.getByRole('link', { name: 'BTCUSDT' })).toHaveAttribute('href', '/dashboard/charts/BTCUSDT');
    expect(screen.getByRole('note')).toHaveTextContent('Simulated data');
    expect(fake.calls.find((call) => call.path === '/api/markets/quotes')).toBeDefined();
    expect(fake.calls.filter((call) => call.path === '/api/markets/quotes').length).toBe(1);
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/watchlists/1/export.csv');
  });

  it('has no simulated-data badge when every quote is real', async () => {
    setUp();
    renderApp('/dashboard/watchlists?list=2');
    await itemsTable();

    await waitFor(() => expect(screen.getByTestId('price-AAPL')).toHaveTextContent('231.40'));
    expect(screen.getByRole('heading', { level: 2, name: 'Stocks' })).toBeInTheDocument();
    expect(screen.queryByText('Simulated data')).not.toBeInTheDocument();
  });

  it('updates prices from the live stream and flashes the direction of the change', async () => {
    setUp();
    renderApp('/dashboard/watchlists');
    await itemsTable();
    await waitFor(() => expect(screen.getByTestId('price-BTCUSDT')).toHaveTextContent('60,740.50'));

    act(() => publishLivePrice(quote('BTCUSDT', '60800', '2.5', true, '2026-11-20T10:00:10.000Z')));
    expect(screen.getByTestId('price-BTCUSDT')).toHaveTextContent('60,800.00');
    expect(screen.getByTestId('price-BTCUSDT')).toHaveClass('price--flash-up');
    expect(within(rowOf('BTCUSDT')).getByText('+2.50%')).toBeInTheDocument();

    act(() => publishLivePrice(quote('BTCUSDT', '60700', '2.4', true, '2026-11-20T10:00:20.000Z')));
    expect(screen.getByTestId('price-BTCUSDT')).toHaveClass('price--flash-down');
    // An older price never overwrites a newer one; a symbol not on the list is ignored.
    act(() => publishLivePrice(quote('BTCUSDT', '1', '0', true, '2026-11-20T09:00:00.000Z')));
    act(() => publishLivePrice(quote('AAPL', '999', '0', false, '2026-11-20T10:00:20.000Z')));
    expect(screen.getByTestId('price-BTCUSDT')).toHaveTextContent('60,700.00');
    act(() => publishLivePrice(quote('SOLUSDT', '0.0123', null, true, '2026-11-20T10:00:20.000Z')));
    expect(screen.getByTestId('price-SOLUSDT')).toHaveTextContent('0.0123');
  });

  it('says there are no lists yet, and creates one with the csrf header', async () => {
    const fake = setUp([]);
    renderApp('/dashboard/watchlists');
    expect(await screen.findByText(/No watchlists yet/, {}, { timeout: 5000 })).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('New list name'), { target: { value: ' Majors ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create list' }));

    expect(await screen.findByRole('heading', { level: 2, name: 'Majors' })).toBeInTheDocument();
    expect(screen.getByText(/This list is empty/)).toBeInTheDocument();
    const post = fake.calls.find((call) => call.method === 'POST' && call.path === '/api/watchlists');
    expect(post?.body).toEqual({ name: 'Majors' });
    expect(post?.headers['x-csrf-token']).toBe('csrf-test');
  });

  it('shows the api’s message when a list name is taken', async () => {
    setUp();
    renderApp('/dashboard/watchlists');
    await itemsTable();

    fireEvent.change(screen.getByLabelText('New list name'), { target: { value: 'Crypto' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create list' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Could not create the list: You already have a watchlist named Crypto');
  });

  it('adds a symbol found with the search box, and refuses a duplicate with the api’s message', async () => {
    const fake = setUp([watchlistView(1, 'Crypto', ['BTCUSDT'])]);
    renderApp('/dashboard/watchlists');
    await itemsTable();
    const search = screen.getByRole('combobox', { name: 'Add a symbol' });

    fireEvent.change(search, { target: { value: 'eth' } });
    expect(await screen.findByRole('option', { name: /ETHUSDT Ethereum \/ Tether/ })).toBeInTheDocument();
    fireEvent.keyDown(search, { key: 'Enter' });

    await waitFor(() => expect(symbols()).toEqual(['BTCUSDT', 'ETHUSDT']));
    expect(fake.calls.find((call) => call.method === 'POST' && call.path === '/api/watchlists/1/items')?.body).toEqual({ symbol: 'ETHUSDT' });
    expect(fake.calls.find((call) => call.path === '/api/markets')).toBeDefined();
    expect(screen.getByText('Added ETHUSDT to “Crypto”.')).toHaveAttribute('role', 'status');
    // The new symbol's price is asked for.
    await waitFor(() => expect(screen.getByTestId('price-ETHUSDT')).toHaveTextContent('3,012.10'));

    // Another tab added SOLUSDT meanwhile: the api refuses it as a duplicate.
    fake.replies.set('POST /api/watchlists/1/items', { status: 409, body: { error: { code: 'duplicate_symbol', message: 'SOLUSDT is already on this watchlist' } } });
    fireEvent.change(search, { target: { value: 'sol' } });
    fireEvent.mouseDown(await screen.findByRole('option', { name: /SOLUSDT/ }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Could not add SOLUSDT: SOLUSDT is already on this watchlist');
    expect(symbols()).toEqual(['BTCUSDT', 'ETHUSDT']);
  });

  it('removes a symbol', async () => {
    const fake = setUp();
    renderApp('/dashboard/watchlists');
    await itemsTable();

    fireEvent.click(screen.getByRole('button', { name: 'Remove ETHUSDT' }));

    await waitFor(() => expect(symbols()).toEqual(['BTCUSDT', 'SOLUSDT']));
    expect(fake.changes()).toEqual(['DELETE /api/watchlists/1/items/101']);
  });

  it('renames a list, and deletes one only after confirming', async () => {
    const fake = setUp();
    const router = renderApp('/dashboard/watchlists');
    await itemsTable();

    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    const rename = within(screen.getByRole('form', { name: 'Rename watchlist' }));
    fireEvent.change(rename.getByLabelText('List name'), { target: { value: 'Coins' } });
    fireEvent.click(rename.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Coins' })).toBeInTheDocument();
    expect(fake.calls.find((call) => call.method === 'PATCH')?.body).toEqual({ name: 'Coins' });

    fireEvent.click(screen.getByRole('button', { name: 'Delete…' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Delete “Coins”?' }));
    expect(dialog.getByText(/its 3 symbols are removed/)).toBeInTheDocument();
    expect(fake.changes()).toEqual(['PATCH /api/watchlists/1']);
    fireEvent.click(dialog.getByRole('button', { name: 'Delete list' }));

    expect(await screen.findByRole('heading', { level: 2, name: 'Stocks' })).toBeInTheDocument();
    expect(fake.changes()).toEqual(['PATCH /api/watchlists/1', 'DELETE /api/watchlists/1']);
    expect(screen.getByText('Deleted “Coins”.')).toHaveAttribute('role', 'status');
    expect(router.state.location.search).toBe('');
  });

  it('imports a CSV file as a new list (raw text/csv body, named after the file) and selects it', async () => {
    const fake = setUp();
    const router = renderApp('/dashboard/watchlists');
    await itemsTable();
    const file = new File(['symbol,name,type\nETHUSDT,Ethereum / Tether,crypto\nAAPL,Apple Inc.,stock\n'], 'my picks.csv', { type: 'text/csv' });

    fireEvent.change(screen.getByLabelText('Import a CSV file'), { target: { files: [file] } });

    expect(await screen.findByRole('heading', { level: 2, name: 'my picks' })).toBeInTheDocument();
    expect(symbols()).toEqual(['ETHUSDT', 'AAPL']);
    expect(screen.getByText('Imported “my picks” with 2 symbols.')).toHaveAttribute('role', 'status');
    const post = fake.calls.find((call) => call.path === '/api/watchlists/import');
    expect(post?.headers).toMatchObject({ 'Content-Type': 'text/csv', 'x-csrf-token': 'csrf-test' });
    expect(post?.body).toBe('symbol,name,type\nETHUSDT,Ethereum / Tether,crypto\nAAPL,Apple Inc.,stock\n');
    expect(router.state.location.search).toMatch(/^\?list=\d+$/);
  });

  it('shows why the watchlists could not be loaded', async () => {
    const fake = setUp();
    fake.replies.set('GET /api/watchlists', { status: 500, body: { error: { code: 'internal', message: 'Something broke on our side' } } });
    renderApp('/dashboard/watchlists');

    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent('Your watchlists could not be loaded: Something broke on our side');
  });

  it('is in the dashboard navigation', async () => {
    setUp();
    renderApp('/dashboard/watchlists');
    const nav = within(await screen.findByRole('navigation', { name: 'Dashboard' }));
    expect(nav.getByRole('link', { name: 'Watchlists' })).toHaveAttribute('aria-current', 'page');
    await itemsTable();
  });
});

describe('reordering by keyboard', () => {
  const ROW_HEIGHT = 40;
  let restore: () => void;

  beforeEach(() => {
    // jsdom lays nothing out: rows get the boxes a browser would give them, one under another,
    // so the drag-and-drop library can find the row below or above.
    const original = Element.prototype.getBoundingClientRect;
    Element.prototype.getBoundingClientRect = function getBoundingClientRect(this: Element) {
      const row = this.closest('tr[data-item-id]');
      if (!row || !row.parentElement) return original.call(this);
      const index = [...row.parentElement.children].indexOf(row);
      const top = 100 + index * ROW_HEIGHT;
      return { x: 0, y: top, top, left: 0, right: 600, bottom: top + ROW_HEIGHT, width: 600, height: ROW_HEIGHT, toJSON: () => ({}) } as DOMRect;
    };
    restore = () => {
      Element.prototype.getBoundingClientRect = original;
    };
  });
  afterEach(() => restore());

  /** Lets the library measure the rows and apply a move (it does so on animation frames). */
  const frames = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 50)));

  /** Space on the handle picks the row up, each ArrowDown moves it one row, Space drops it. */
  async function dragDown(symbol: string, rows: number): Promise<void> {
    const handle = screen.getByRole('button', { name: `Reorder ${symbol}` });
    handle.focus();
    fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
    await frames();
    for (let i = 0; i < rows; i += 1) {
      fireEvent.keyDown(handle, { code: 'ArrowDown', key: 'ArrowDown' });
      await frames();
    }
    fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
    await frames();
  }

  it('moves a row down at once and saves the new order with PUT', async () => {
    const fake = setUp();
    renderApp('/dashboard/watchlists');
    await itemsTable();

    await dragDown('BTCUSDT', 2);

    await waitFor(() => expect(symbols()).toEqual(['ETHUSDT', 'SOLUSDT', 'BTCUSDT']));
    await waitFor(() => expect(fake.changes()).toEqual(['PUT /api/watchlists/1/order']));
    const put = fake.calls.find((call) => call.method === 'PUT');
    expect(put?.body).toEqual({ itemIds: [101, 102, 100] });
    expect(put?.headers['x-csrf-token']).toBe('csrf-test');
    expect(fake.watchlists[0]?.items.map((item) => item.symbol)).toEqual(['ETHUSDT', 'SOLUSDT', 'BTCUSDT']);
  });

  it('puts the rows back and says why when the api refuses the order', async () => {
    const fake = setUp();
    fake.replies.set('PUT /api/watchlists/1/order', { status: 400, body: { error: { code: 'invalid_order', message: 'The order must name every item of the list once' } } });
    renderApp('/dashboard/watchlists');
    await itemsTable();

    await dragDown('BTCUSDT', 1);

    expect(await screen.findByRole('alert')).toHaveTextContent('The new order could not be saved, so it was undone: The order must name every item of the list once');
    expect(symbols()).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
  });
});
