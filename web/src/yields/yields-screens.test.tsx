import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { currentChart, fakeCharts, liveSeries, resetFakeCharts } from '../../test/chart-library';
import { removeFetch } from '../../test/fake-fetch';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';
import { CREATED, YIELDS_VARIANTS, yieldsApi } from '../../test/yields-api';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

beforeEach(() => {
  window.localStorage.clear();
  resetFakeCharts();
});
afterEach(removeFetch);

const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
/** A cell's text, its no-break spaces (between a number and its unit) read as spaces. */
const cell = (row: HTMLElement, label: string) => (row.querySelector(`td[data-label="${label}"]`)?.textContent ?? '').replace(/\u00a0/g, ' ');

describe('yields pools table', () => {
  it('lists pools with TVL, APR, the disagreement flag, score and the replay label; filters, sorts and loads more', async () => {
    const api = yieldsApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/yields');
    expect(await screen.findByRole('heading', { level: 1, name: 'Liquidity-pool yields' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Liquidity pools' });
    const [weth, curve, arb] = rowsOf(table) as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(weth).getByRole('link', { name: 'USDC-WETH' })).toHaveAttribute('href', '/dashboard/yields/pools/11');
    expect(cell(weth, 'Pool')).toContain('uniswap-v3 · Ethereum · 0.05 % fee');
    expect(cell(weth, 'TVL')).toBe('$182.4M');
    expect(cell(weth, 'APR')).toBe('14.20 %ours: fees + rewards');
    expect(cell(weth, 'Score')).toBe('71.4');
    expect(cell(curve, 'Pool')).toContain('Stablecoin');
    expect(cell(arb, 'APR')).toContain('DefiLlama’s APY');
    expect(cell(arb, 'Score')).toBe('—');
    expect(cell(arb, 'Updated')).toContain('DefiLlama list');
    expect(screen.getByRole('note')).toHaveTextContent(/Replay dataSimulated DefiLlama yields \(offline replay: simulated values/);
    expect(screen.getByRole('note')).toHaveTextContent('15,230 pools known, 512 tracked hourly');

    fireEvent.click(screen.getByRole('button', { name: 'Load more pools' }));
    await waitFor(() => expect(rowsOf(screen.getByRole('table', { name: 'Liquidity pools' }))).toHaveLength(4));
    const pepe = rowsOf(screen.getByRole('table', { name: 'Liquidity pools' }))[3]!;
    expect(within(pepe).getByText('Disagrees')).toBeInTheDocument();
    expect(screen.getByText('That is every matching pool (4).')).toBeInTheDocument();

    fireEvent.click(within(screen.getByRole('table', { name: 'Liquidity pools' })).getByRole('button', { name: /^APR/ }));
    await waitFor(() => expect(cell(rowsOf(screen.getByRole('table', { name: 'Liquidity pools' }))[0]!, 'Pool')).toContain('PEPE-WETH'));
    expect(screen.getByRole('columnheader', { name: /APR/ })).toHaveAttribute('aria-sort', 'descending');

    const form = within(screen.getByRole('form', { name: 'Pool filters' }));
    fireEvent.change(form.getByLabelText('Chain'), { target: { value: 'Ethereum' } });
    fireEvent.click(form.getByLabelText('Stablecoin pools only'));
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'tvl' } });
    fireEvent.click(form.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(rowsOf(screen.getByRole('table', { name: 'Liquidity pools' }))).toHaveLength(1));
    expect(screen.getByText(/Showing Ethereum · stablecoin pools, by TVL/)).toBeInTheDocument();
    expect(api.calls.filter((call) => call.includes('/api/yields'))).toEqual([
      'GET /api/yields/pools',
      'GET /api/yields/pools?cursor=2100000~13',
      'GET /api/yields/pools?sort=apr',
      'GET /api/yields/pools',
      'GET /api/yields/pools?chain=Ethereum&stablecoin=true',
    ]);
  });

  it('refuses a malformed minimum TVL before asking, and shows the empty and error states', async () => {
    const api = yieldsApi({ ...YIELDS_VARIANTS.poolsNone, ...YIELDS_VARIANTS.poolsDown });
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/yields');
    expect(await screen.findByText(/No pool is known yet/)).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('No snapshot has been stored yet');
    const form = within(screen.getByRole('form', { name: 'Pool filters' }));
    fireEvent.change(form.getByLabelText('Minimum TVL (USD)'), { target: { value: 'a lot' } });
    fireEvent.click(form.getByRole('button', { name: 'Apply' }));
    expect(await form.findByRole('alert')).toHaveTextContent('Enter the minimum TVL in US dollars');
    expect(api.calls.filter((call) => call.includes('/api/yields'))).toEqual(['GET /api/yields/pools']);

    fireEvent.change(form.getByLabelText('Minimum TVL (USD)'), { target: { value: '' } });
    fireEvent.change(form.getByLabelText('Token'), { target: { value: 'USDC' } });
    fireEvent.click(form.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText(/The pools could not be loaded: The database is not reachable/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('yields pool page', () => {
  it('shows the figures, our APRs beside DefiLlama’s APY, every named part of the score, the charts and the user’s alerts', async () => {
    installFakeApi(signedInSession(), yieldsApi());
    renderApp('/dashboard/yields/pools/11');
    expect(await screen.findByRole('heading', { level: 1, name: 'USDC-WETH' })).toBeInTheDocument();
    expect(screen.getByText('TVL', { selector: 'dt' }).nextSibling).toHaveTextContent('$182.4M');
    expect(screen.getByText('Fees, 24 h').nextSibling).toHaveTextContent('$28.3K');
    const ours = within(screen.getByRole('region', { name: 'Our fee APR' }));
    expect(ours.getByText('24 hours').nextSibling).toHaveTextContent('5.66 %');
    expect(ours.getByText('7 days').nextSibling).toHaveTextContent('6.10 %');
    expect(ours.getByText('30 days').nextSibling).toHaveTextContent('5.90 %');
    const theirs = within(screen.getByRole('region', { name: 'DefiLlama’s APY' }));
    expect(theirs.getByText('APY').nextSibling).toHaveTextContent('13.80 %');
    expect(theirs.getByText('Rewards').nextSibling).toHaveTextContent('8.28 %');
    expect(screen.getByText(/Our APR and DefiLlama’s APY agree within 1 percentage point/)).toBeInTheDocument();

    const score = within(screen.getByRole('region', { name: 'Score breakdown' }));
    expect(score.getByText('71.4')).toBeInTheDocument();
    const parts = score.getAllByRole('listitem');
    expect(parts.map((part) => part.querySelector('.yield-part__label')?.textContent)).toEqual([
      'Fee APR',
      'Volume / TVL',
      'TVL stability (30 d)',
      'Consistency (mu / sigma)',
      'Not an outlier',
      'Organic share of APY',
      'Close to its 30-day mean',
    ]);
    expect(parts[0]).toHaveTextContent('17.8 pts · weight 25');
    expect(parts[0]).toHaveTextContent('Our fee APR 14.2 %; full marks at 20 %.');
    expect(parts[6]).toHaveTextContent('not available · weight 10');
    expect(score.getByText('6 of 7 parts available: their weights are scaled up to 100.')).toBeInTheDocument();

    // Four charts: TVL, volume, fees, APR (ours beside DefiLlama's).
    expect(fakeCharts.filter((chart) => !chart.removed)).toHaveLength(4);
    const apr = currentChart();
    expect(liveSeries(apr, 'Line')).toHaveLength(2);
    expect(liveSeries(apr, 'Line')[0]!.data).toHaveLength(30);
    expect(screen.getByText('Data table (30 days)')).toBeInTheDocument();

    const alerts = within(screen.getByRole('list', { name: 'Your alerts on USDC-WETH' }));
    expect(alerts.getAllByRole('listitem')).toHaveLength(1);
    expect(alerts.getByText('APR above 20 %')).toBeInTheDocument();
    expect(alerts.getByText('Active')).toBeInTheDocument();
  });

  it('creates an alert in the dialog: the server’s field error beside the threshold, Telegram offered only once linked, then saved', async () => {
    const api = yieldsApi(YIELDS_VARIANTS.thresholdRefused);
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/yields/pools/11');
    fireEvent.click(await screen.findByRole('button', { name: 'New alert' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'New yield alert' }));
    expect(dialog.getByLabelText('Alert me when')).toHaveFocus();
    await dialog.findByText('Link your Telegram chat in', { exact: false });
    expect(dialog.getByRole('checkbox', { name: /Telegram/ })).toBeDisabled();
    expect(dialog.getByRole('checkbox', { name: /Email/ })).toBeDisabled();
    expect(dialog.getByText('Email is not set up on this server, so no copy would be sent.')).toBeInTheDocument();
    expect(dialog.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/dashboard/settings#telegram');

    fireEvent.change(dialog.getByLabelText('Alert me when'), { target: { value: 'apr_below' } });
    expect(dialog.getByText(/Percent per year, e\.g\. 12\.5\. Now 14\.20 %\./)).toBeInTheDocument();
    fireEvent.change(dialog.getByLabelText('Threshold'), { target: { value: '999999' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create alert' }));
    expect(await dialog.findByText('threshold must be from 0 to 100000 for apr')).toBeInTheDocument();
    expect(dialog.getByLabelText('Threshold')).toHaveAttribute('aria-invalid', 'true');
    expect(dialog.getByRole('alert')).toHaveTextContent('Check the field marked below.');

    fireEvent.change(dialog.getByLabelText('Threshold'), { target: { value: '4.5' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create alert' }));
    expect(await screen.findByText(`Alert created: ${CREATED.description}. It is checked against every new snapshot.`)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Your alerts on USDC-WETH' })).getAllByRole('listitem')).toHaveLength(2);
    expect(api.bodies['POST /api/yields/alerts']).toEqual([
      { alertType: 'apr', condition: 'less_than', threshold: '999999', cooldownMinutes: 360, isActive: true, emailEnabled: false, telegramEnabled: false, poolId: 11 },
      { alertType: 'apr', condition: 'less_than', threshold: '4.5', cooldownMinutes: 360, isActive: true, emailEnabled: false, telegramEnabled: false, poolId: 11 },
    ]);
  });

  it('says when a pool does not exist', async () => {
    installFakeApi(signedInSession(), yieldsApi());
    renderApp('/dashboard/yields/pools/999');
    expect(await screen.findByRole('alert')).toHaveTextContent('There is no pool “999”.');
  });
});

describe('yield alerts page', () => {
  it('lists the alerts with their state, pauses and deletes one, and pages the history', async () => {
    const api = yieldsApi();
    installFakeApi(signedInSession(), api);
    renderApp('/dashboard/yields/alerts');
    const table = await screen.findByRole('table', { name: 'Your yield alerts' });
    const [apr, drop] = rowsOf(table) as [HTMLElement, HTMLElement];
    expect(cell(apr, 'Condition')).toContain('APR above 20 %');
    expect(cell(apr, 'State')).toBe('Active');
    expect(cell(drop, 'State')).toBe('Waiting to re-arm');
    expect(cell(drop, 'Condition')).toBe('TVL down 15 % within 24 hat most once every 6 h · in app, push');
    expect(screen.getByText(/Email is not set up on this server/)).toBeInTheDocument();

    fireEvent.click(within(apr).getByRole('button', { name: 'Pause APR above 20 %' }));
    await waitFor(() => expect(cell(rowsOf(screen.getByRole('table', { name: 'Your yield alerts' }))[0]!, 'State')).toBe('Paused'));
    expect(api.bodies['PATCH /api/yields/alerts/301']).toEqual([{ isActive: false }]);

    fireEvent.click(within(drop).getByRole('button', { name: 'Delete TVL down 15 % within 24 h' }));
    fireEvent.click(within(drop).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(rowsOf(screen.getByRole('table', { name: 'Your yield alerts' }))).toHaveLength(1));
    expect(api.calls).toContain('DELETE /api/yields/alerts/302');

    const history = await screen.findByRole('table', { name: /Yield alert firings/ });
    expect(cell(rowsOf(history)[0]!, 'Value')).toBe('17.2 %');
    expect(cell(rowsOf(history)[0]!, 'Copies')).toBe('Telegram');
    fireEvent.click(screen.getByRole('button', { name: 'Load older firings' }));
    await waitFor(() => expect(rowsOf(screen.getByRole('table', { name: /Yield alert firings/ }))).toHaveLength(2));
    expect(screen.getByText('That is the whole history (2).')).toBeInTheDocument();
  });
});

describe('research yields page (public)', () => {
  it('shows the top pools with their score breakdown to a visitor', async () => {
    installFakeApi(null, yieldsApi());
    renderApp('/research/yields');
    expect(await screen.findByRole('heading', { level: 1, name: 'Liquidity-pool yields' })).toBeInTheDocument();
    const top = await screen.findByRole('list', { name: 'Top pools by score' });
    const cards = within(top).getAllByRole('listitem').filter((item) => item.classList.contains('yield-top__card'));
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent('USDC-WETH');
    expect(within(cards[0]!).getByText('How the score is made').closest('details')).toHaveAttribute('open');
    expect(within(cards[0]!).getAllByRole('listitem')).toHaveLength(7);
    expect(screen.getByRole('note')).toHaveTextContent('Replay data');
  });
});
