import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { apiError } from '../../test/accounts-api';
import { installFetch, removeFetch } from '../../test/fake-fetch';
import { RECORDED_NEWS, manyNewsItems, newsFake } from '../../test/news-api';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';
import { watchlistView, watchlistsChartsFake } from '../../test/watchlists-charts-api';
import { NewsColumn } from './news-column';
import { parseMarketNews, relativeTime, sourceLabel } from './news-client';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

afterEach(removeFetch);

/** Half an hour after the newest recorded item. */
const NOW = Date.parse('2025-12-12T22:29:32.000Z');
const now = () => NOW;

function serve(fake: ReturnType<typeof newsFake>): void {
  installFetch((url) => fake.answer(url) ?? apiError(404, 'not_found', `No route for ${url}`));
}

describe('news client', () => {
  it('reads the api’s page and rejects anything else', () => {
    const answer = parseMarketNews({ symbol: 'BTCUSDT', items: RECORDED_NEWS, page: 1, limit: 10, total: 3, replay: true });
    expect(answer.items.map((item) => item.id)).toEqual([101, 102, 103]);
    expect(answer.replay).toBe(true);
    // An answer without the field is not taken for recorded news.
    expect(parseMarketNews({ symbol: 'BTCUSDT', items: [], page: 1, limit: 10, total: 0 }).replay).toBe(false);
    expect(() => parseMarketNews({ news: [] })).toThrow(TypeError);
    expect(() => parseMarketNews({ symbol: 'X', items: [{ ...RECORDED_NEWS[0], matchedBy: 'vibes' }], page: 1, limit: 10, total: 1 })).toThrow(TypeError);
  });

  it('names sources by their host and says how long ago', () => {
    expect(sourceLabel('feed:www.coindesk.com/arc/outboundfeeds/rss')).toBe('coindesk.com');
    expect(sourceLabel('sec-edgar')).toBe('SEC filings');
    expect(relativeTime('2025-12-12T21:59:32.000Z', NOW)).toBe('30 minutes ago');
    expect(relativeTime('2025-12-12T12:15:00.000Z', NOW)).toBe('10 hours ago');
    expect(relativeTime('2025-12-10T12:15:00.000Z', NOW)).toBe('2 days ago');
    expect(relativeTime('2025-12-12T22:29:00.000Z', NOW)).toBe('just now');
  });
});

describe('news column', () => {
  it('shows a loading state, then each headline as a link opening a new tab, its source, time and match', async () => {
    serve(newsFake({ news: { BTCUSDT: [...RECORDED_NEWS] } }));
    render(<NewsColumn symbol="BTCUSDT" now={now} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading news about BTCUSDT');

    const link = await screen.findByRole('link', { name: /Vanguard Exec Calls Bitcoin a 'Digital Labubu'/ });
    expect(link).toHaveAttribute('href', RECORDED_NEWS[0]?.link);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveAccessibleName(/opens in a new tab/);

    const first = link.closest('li') as HTMLElement;
    expect(within(first).getByText('decrypt.co')).toBeInTheDocument();
    const time = within(first).getByText('30 minutes ago');
    expect(time).toHaveAttribute('dateTime', '2025-12-12T21:59:32.000Z');
    expect(time).toHaveAttribute('title', '12 Dec 2025, 21:59 UTC');
    expect(within(first).getByText('Name')).toHaveAttribute('title', 'The item names the company or coin');
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(screen.queryByText('Recorded feeds')).not.toBeInTheDocument();
  });

  it('says so when no stored item is about the symbol', async () => {
    serve(newsFake({ news: { ETHUSDT: [] } }));
    render(<NewsColumn symbol="ETHUSDT" now={now} />);
    expect(await screen.findByText('No news about ETHUSDT in the stored feeds yet.')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('shows the api’s error and loads again on “Try again”', async () => {
    const fake = newsFake({ news: { BTCUSDT: [...RECORDED_NEWS] } });
    let failing = true;
    installFetch((url) => (failing ? apiError(503, 'unavailable', 'The database is not reachable') : (fake.answer(url) ?? { status: 404 })));
    render(<NewsColumn symbol="BTCUSDT" now={now} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('News could not be loaded: The database is not reachable');
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('pages with “Load more” until every item is shown', async () => {
    const fake = newsFake({ news: { BTCUSDT: manyNewsItems(23) } });
    serve(fake);
    render(<NewsColumn symbol="BTCUSDT" now={now} />);
    expect(await screen.findAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByText('10 of 23')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(20));
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(23));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(fake.requests).toEqual([
      '/api/markets/BTCUSDT/news?page=1&limit=10',
      '/api/markets/BTCUSDT/news?page=2&limit=10',
      '/api/markets/BTCUSDT/news?page=3&limit=10',
    ]);
  });

  it('keeps the shown items when a further page fails, and tries again', async () => {
    const fake = newsFake({ news: { BTCUSDT: manyNewsItems(12) } });
    let failPage2 = true;
    installFetch((url) => (failPage2 && url.includes('page=2') ? { status: 502, body: '<html>Bad gateway</html>' } : (fake.answer(url) ?? { status: 404 })));
    render(<NewsColumn symbol="BTCUSDT" now={now} />);
    expect(await screen.findAllByRole('listitem')).toHaveLength(10);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('More news could not be loaded');
    expect(screen.getAllByRole('listitem')).toHaveLength(10);
    failPage2 = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try loading more again' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(12));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('labels recorded feeds only when the api says the items are replayed', async () => {
    serve(newsFake({ news: { BTCUSDT: [...RECORDED_NEWS] }, replay: true }));
    render(<NewsColumn symbol="BTCUSDT" now={now} />);
    expect(await screen.findByRole('note')).toHaveTextContent('Recorded feeds');
  });

  it('shows a filing’s form type and its CIK match, and no link for an address that is not the web', async () => {
    const filing = { ...RECORDED_NEWS[0]!, id: 7, source: 'sec-edgar', title: '8-K - Apple Inc. (0000320193) (Filer)', formType: '8-K', cik: '0000320193', company: 'Apple Inc.', matchedBy: 'cik' as const };
    const odd = { ...RECORDED_NEWS[1]!, id: 8, title: 'A headline with a strange link', link: 'javascript:alert(1)' };
    serve(newsFake({ news: { AAPL: [filing, odd] } }));
    render(<NewsColumn symbol="AAPL" now={now} />);
    const filingLink = await screen.findByRole('link', { name: /8-K - Apple Inc\./ });
    const item = filingLink.closest('li') as HTMLElement;
    expect(within(item).getByText('SEC filings')).toBeInTheDocument();
    expect(within(item).getByText('8-K')).toBeInTheDocument();
    expect(within(item).getByText('CIK')).toBeInTheDocument();
    expect(screen.getByText('A headline with a strange link').closest('a')).toBeNull();
  });
});

describe('news on the chart and watchlist pages', () => {
  it('shows the charted symbol’s news beside the chart', async () => {
    const fake = watchlistsChartsFake();
    fake.news.news.set('BTCUSDT', [...RECORDED_NEWS]);
    installFakeApi(signedInSession(), fake.handler);
    renderApp('/dashboard/charts/BTCUSDT');
    const column = await screen.findByRole('region', { name: 'News about BTCUSDT' }, { timeout: 5000 });
    expect(await within(column).findAllByRole('link')).toHaveLength(3);
  });

  it('shows the first symbol’s news on a watchlist, and another symbol’s after picking its row', async () => {
    const fake = watchlistsChartsFake({ watchlists: [watchlistView(1, 'Crypto', ['BTCUSDT', 'ETHUSDT'])] });
    fake.news.news.set('BTCUSDT', [...RECORDED_NEWS]);
    installFakeApi(signedInSession(), fake.handler);
    renderApp('/dashboard/watchlists');
    const column = await screen.findByRole('region', { name: 'News about BTCUSDT' }, { timeout: 5000 });
    expect(await within(column).findAllByRole('link')).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'News about BTCUSDT' })).toHaveAttribute('aria-pressed', 'true');

    // A click on the row (not on its links or buttons) picks it; the News button does it from the keyboard.
    fireEvent.click(screen.getByText('Ethereum / Tether'));
    expect(await screen.findByText('No news about ETHUSDT in the stored feeds yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'News about ETHUSDT' })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'News about BTCUSDT' }));
    expect(await screen.findByRole('region', { name: 'News about BTCUSDT' })).toBeInTheDocument();
  });
});
