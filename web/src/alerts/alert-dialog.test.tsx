import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FakeAlertsApi, apiAlert } from '../../test/alerts-api';
import { removeFetch } from '../../test/fake-fetch';
import { installSpeech, removeSpeech } from '../../test/fake-speech';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

beforeEach(() => window.localStorage.clear());
afterEach(() => {
  removeFetch();
  removeSpeech();
});

async function openNewAlert(alerts = [apiAlert()]) {
  const api = new FakeAlertsApi(alerts);
  installFakeApi(signedInSession(), api.handler);
  renderApp('/dashboard/alerts');
  fireEvent.click(await screen.findByRole('button', { name: 'New alert' }));
  return { api, dialog: within(screen.getByRole('dialog', { name: 'New alert' })) };
}

type Scope = ReturnType<typeof within>;

function type(scope: Scope, label: string, value: string): void {
  fireEvent.change(scope.getByLabelText(label), { target: { value } });
}

async function pickSymbol(scope: Scope, query: string, symbol: string): Promise<void> {
  type(scope, 'Symbol', query);
  fireEvent.click(await scope.findByRole('option', { name: new RegExp(`^${symbol}\\b`) }));
}

async function submit(scope: Scope, api: FakeAlertsApi, button = 'Create alert') {
  fireEvent.click(scope.getByRole('button', { name: button }));
  await waitFor(() => expect(api.calls(button === 'Create alert' ? 'POST' : 'PATCH').length).toBeGreaterThan(0));
  return api.calls(button === 'Create alert' ? 'POST' : 'PATCH')[0];
}

describe('alert dialog: conditions', () => {
  it('creates a price alert on a picked market with the full request body (crypto: once per day)', async () => {
    const { api, dialog } = await openNewAlert();
    type(dialog, 'Name', 'BTC dip');
    await pickSymbol(dialog, 'btc', 'BTCUSDT');
    expect(dialog.getByText('BTCUSDT · crypto')).toBeInTheDocument();
    fireEvent.change(dialog.getByLabelText('Condition type'), { target: { value: 'crossing_down' } });
    type(dialog, 'Price level', '65000.25');

    const request = await submit(dialog, api);

    expect(request).toEqual({
      method: 'POST',
      path: '/api/alerts',
      csrf: 'csrf-test',
      body: {
        name: 'BTC dip',
        symbol: 'BTCUSDT',
        condition: { type: 'crossing_down', value: '65000.25' },
        frequency: 'once_per_day',
        expiresAt: null,
        notifyPush: true,
        notifyEmail: false,
        webhookUrl: null,
        useAudio: false,
        audioMessage: null,
        audioVoiceId: null,
      },
    });
    expect(api.requests.some((r) => r.path === '/api/markets?q=btc&limit=10')).toBe(true);
    // The dialog closes and the new alert is listed.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('rowheader', { name: /BTC dip/ })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Created “BTC dip”.');
  });

  // Every family: the fields it shows and the condition object (and interval) they produce.
  const cases: { type: string; fill: Record<string, string>; selects?: Record<string, string>; condition: Record<string, unknown>; interval?: string }[] = [
    { type: 'crossing', fill: { 'Price level': '70000' }, condition: { type: 'crossing', value: '70000' } },
    { type: 'greater_than', fill: { 'Price level': '0.3' }, condition: { type: 'greater_than', value: '0.3' } },
    { type: 'outside_channel', fill: { 'Channel low': '60000', 'Channel high': '72000.5' }, condition: { type: 'outside_channel', low: '60000', high: '72000.5' } },
    { type: 'entering_channel', fill: { 'Channel low': '90', 'Channel high': '110' }, condition: { type: 'entering_channel', low: '90', high: '110' } },
    { type: 'moving_down', fill: { Amount: '1500', 'Within (minutes)': '15' }, condition: { type: 'moving_down', amount: '1500', minutes: 15 } },
    { type: 'moving_up_percent', fill: { Percent: '2.5' }, condition: { type: 'moving_up_percent', percent: '2.5', minutes: 60 } },
    { type: 'rsi_above', fill: { 'RSI level': '75' }, selects: { 'Bar interval': '4h' }, condition: { type: 'rsi_above', level: 75, period: 14 }, interval: '4h' },
    { type: 'rsi_below', fill: { 'RSI level': '25.5', 'RSI period': '21' }, condition: { type: 'rsi_below', level: 25.5, period: 21 }, interval: '1h' },
    {
      type: 'price_crossing_ma',
      fill: { 'Average period': '50' },
      selects: { Average: 'ema', Direction: 'up', 'Bar interval': '1d' },
      condition: { type: 'price_crossing_ma', ma: 'ema', period: 50, direction: 'up' },
      interval: '1d',
    },
    {
      type: 'ma_crossover',
      fill: { 'Fast period': '20', 'Slow period': '50' },
      selects: { Direction: 'down' },
      condition: { type: 'ma_crossover', ma: 'sma', fast: 20, slow: 50, direction: 'down' },
      interval: '1h',
    },
    { type: 'macd_signal_cross', fill: {}, condition: { type: 'macd_signal_cross', fast: 12, slow: 26, signal: 9, direction: 'any' }, interval: '1h' },
    // Volatility: each with its own parameters and the server's defaults.
    {
      type: 'volatility_above',
      fill: { 'Volatility above (%)': '80.5' },
      selects: { 'Bar interval': '1d' },
      condition: { type: 'volatility_above', period: 20, level: 80.5 },
      interval: '1d',
    },
    {
      type: 'volatility_spike',
      fill: { 'Times its average': '2.5', 'Volatility bars': '10', 'Average over (bars)': '60' },
      condition: { type: 'volatility_spike', period: 10, longPeriod: 60, factor: 2.5 },
      interval: '1h',
    },
    {
      type: 'atr_above',
      fill: { 'ATR above': '3' },
      selects: { 'ATR in': 'percent', 'Bar interval': '4h' },
      condition: { type: 'atr_above', period: 14, unit: 'percent', level: 3 },
      interval: '4h',
    },
    { type: 'bollinger_squeeze', fill: { 'Band width below': '0.04' }, condition: { type: 'bollinger_squeeze', period: 20, level: 0.04 }, interval: '1h' },
    {
      type: 'bollinger_breakout',
      fill: { 'Times its earlier width': '1.8', 'Bars earlier': '3' },
      condition: { type: 'bollinger_breakout', period: 20, factor: 1.8, lookback: 3 },
      interval: '1h',
    },
    {
      type: 'opening_gap',
      fill: { 'Gap above (%)': '3.5' },
      selects: { Direction: 'down', 'Bar interval': '1m' },
      condition: { type: 'opening_gap', percent: 3.5, direction: 'down' },
      interval: '1m',
    },
  ];

  it.each(cases)('sends $type with its parameters', async ({ type: conditionType, fill, selects = {}, condition, interval }) => {
    const { api, dialog } = await openNewAlert();
    type(dialog, 'Name', 'Test');
    await pickSymbol(dialog, 'AAPL', 'AAPL');
    fireEvent.change(dialog.getByLabelText('Condition type'), { target: { value: conditionType } });
    for (const [label, value] of Object.entries(fill)) type(dialog, label, value);
    for (const [label, value] of Object.entries(selects)) fireEvent.change(dialog.getByLabelText(label), { target: { value } });

    const { body } = await submit(dialog, api);

    expect(body).toMatchObject({ symbol: 'AAPL', condition, frequency: 'once' });
    if (interval) expect(body).toHaveProperty('interval', interval);
    else expect(body).not.toHaveProperty('interval');
  });

  it('sends a news alert: any news by default, keywords only with that scope, and the hourly digest', async () => {
    const { api, dialog } = await openNewAlert();
    type(dialog, 'Name', 'BTC headlines');
    await pickSymbol(dialog, 'btc', 'BTCUSDT');
    fireEvent.change(dialog.getByLabelText('Condition type'), { target: { value: 'news' } });
    expect(dialog.getByLabelText('Which news')).toHaveValue('any');
    expect(dialog.queryByLabelText('Keywords')).not.toBeInTheDocument();
    expect(dialog.queryByLabelText('Bar interval')).not.toBeInTheDocument();
    fireEvent.change(dialog.getByLabelText('Which news'), { target: { value: 'keywords' } });
    // No keyword: said next to the field, nothing sent.
    fireEvent.click(dialog.getByRole('button', { name: 'Create alert' }));
    expect(await dialog.findByText('Enter at least one keyword.')).toBeInTheDocument();
    expect(api.calls('POST')).toHaveLength(0);
    type(dialog, 'Keywords', ' ETF , halving,, ');
    fireEvent.change(dialog.getByLabelText('Notify'), { target: { value: 'true' } });

    const { body } = await submit(dialog, api);

    expect(body).toMatchObject({ symbol: 'BTCUSDT', condition: { type: 'news', scope: 'keywords', keywords: ['ETF', 'halving'], digest: true } });
    expect(body).not.toHaveProperty('interval');
  });

  it('sends a filings-only news alert without keywords', async () => {
    const { api, dialog } = await openNewAlert();
    type(dialog, 'Name', 'AAPL filings');
    await pickSymbol(dialog, 'AAPL', 'AAPL');
    fireEvent.change(dialog.getByLabelText('Condition type'), { target: { value: 'news' } });
    fireEvent.change(dialog.getByLabelText('Which news'), { target: { value: 'filings' } });
    expect((await submit(dialog, api)).body).toMatchObject({ condition: { type: 'news', scope: 'filings', digest: false }, frequency: 'once' });
  });

  it('offers every condition type, grouped', async () => {
    const { dialog } = await openNewAlert();
    const select = dialog.getByLabelText('Condition type');
    expect(within(select).getAllByRole('option').map((option) => (option as HTMLOptionElement).value)).toEqual([
      'crossing',
      'crossing_up',
      'crossing_down',
      'greater_than',
      'less_than',
      'entering_channel',
      'exiting_channel',
      'inside_channel',
      'outside_channel',
      'moving_up',
      'moving_down',
      'moving_up_percent',
      'moving_down_percent',
      'rsi_above',
      'rsi_below',
      'price_crossing_ma',
      'ma_crossover',
      'macd_signal_cross',
      'volatility_above',
      'volatility_spike',
      'atr_above',
      'bollinger_squeeze',
      'bollinger_breakout',
      'opening_gap',
      'news',
    ]);
    expect(within(select).getAllByRole('group').map((group) => group.getAttribute('label'))).toEqual([
      'Price',
      'Channel',
      'Moving',
      'Technical (on closed bars)',
      'Volatility (on closed bars)',
      'News',
    ]);
    // A price condition has no bar interval; a technical one does.
    expect(dialog.queryByLabelText('Bar interval')).not.toBeInTheDocument();
    fireEvent.change(select, { target: { value: 'macd_signal_cross' } });
    expect(dialog.getByLabelText('Bar interval')).toHaveValue('1h');
  });

  it('sends every-time with its cooldown, the expiry as an instant, email, webhook and the spoken message', async () => {
    const speech = installSpeech();
    const { api, dialog } = await openNewAlert();
    type(dialog, 'Name', 'Apple pop');
    await pickSymbol(dialog, 'apple', 'AAPL');
    type(dialog, 'Price level', '250');
    fireEvent.click(dialog.getByRole('radio', { name: 'Every time' }));
    type(dialog, 'Cooldown (seconds)', '120');
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Expires' }));
    type(dialog, 'Expires at', '2099-03-01T09:30');
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Push notification' }));
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Email' }));
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Webhook' }));
    type(dialog, 'Webhook URL', 'https://hooks.example.com/tickerbell');
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Speak this alert aloud' }));
    type(dialog, 'Message to speak', 'Apple is popping');
    fireEvent.change(dialog.getByLabelText('Voice'), { target: { value: 'com.apple.voice.Samantha' } });

    const { body } = await submit(dialog, api);

    expect(body).toEqual({
      name: 'Apple pop',
      symbol: 'AAPL',
      condition: { type: 'crossing_up', value: '250' },
      frequency: 'every_time',
      cooldownSeconds: 120,
      expiresAt: new Date('2099-03-01T09:30').toISOString(),
      notifyPush: false,
      notifyEmail: true,
      webhookUrl: 'https://hooks.example.com/tickerbell',
      useAudio: true,
      audioMessage: 'Apple is popping',
      audioVoiceId: 'com.apple.voice.Samantha',
    });
    expect(speech.speak).not.toHaveBeenCalled();

    // With a webhook, the dialog stays open on the saved alert to show its new signing secret.
    const edit = within(await screen.findByRole('dialog', { name: 'Edit alert “Apple pop”' }));
    expect(edit.getByText('Alert created. Copy its webhook signing secret below.')).toHaveAttribute('role', 'status');
    expect(edit.getByLabelText('Signing secret')).toHaveValue('a'.repeat(64));
    const writeText = jest.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(edit.getByRole('button', { name: 'Copy secret' }));
    await waitFor(() => expect(edit.getByLabelText('Signing secret')).toHaveAccessibleDescription('Copied.'));
    expect(writeText).toHaveBeenCalledWith('a'.repeat(64));
  });

  it('keeps a frequency the user chose when the market changes', async () => {
    const { api, dialog } = await openNewAlert();
    type(dialog, 'Name', 'x');
    fireEvent.click(dialog.getByRole('radio', { name: 'Once' }));
    await pickSymbol(dialog, 'btc', 'BTCUSDT');
    expect(dialog.getByRole('radio', { name: 'Once' })).toBeChecked();
    type(dialog, 'Price level', '1');
    expect((await submit(dialog, api)).body).toMatchObject({ frequency: 'once' });
  });
});

describe('alert dialog: validation', () => {
  it('says what is missing next to each field and sends nothing', async () => {
    const { api, dialog } = await openNewAlert();

    fireEvent.click(dialog.getByRole('button', { name: 'Create alert' }));

    expect(dialog.getByLabelText('Name')).toHaveAccessibleDescription('Give the alert a name.');
    expect(dialog.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(dialog.getByLabelText('Name')).toHaveFocus();
    expect(dialog.getByRole('combobox', { name: 'Symbol' })).toHaveAccessibleDescription(/Pick a market\./);
    expect(dialog.getByLabelText('Price level')).toHaveAccessibleDescription('Enter a number.');
    expect(api.calls('POST')).toHaveLength(0);
  });

  const invalid: { type: string; fill: Record<string, string>; field: string; message: string }[] = [
    { type: 'crossing_up', fill: { 'Price level': '-5' }, field: 'Price level', message: 'Enter a number such as 42 or 60740.25 (at most 10 decimals).' },
    { type: 'crossing_up', fill: { 'Price level': '0.00' }, field: 'Price level', message: 'Must be greater than 0.' },
    { type: 'crossing_up', fill: { 'Price level': '1.12345678901' }, field: 'Price level', message: 'Enter a number such as 42 or 60740.25 (at most 10 decimals).' },
    { type: 'inside_channel', fill: { 'Channel low': '110', 'Channel high': '90' }, field: 'Channel high', message: 'The high must be above the low.' },
    { type: 'inside_channel', fill: { 'Channel low': '100.0', 'Channel high': '100' }, field: 'Channel high', message: 'The high must be above the low.' },
    { type: 'moving_up', fill: { Amount: '10', 'Within (minutes)': '1441' }, field: 'Within (minutes)', message: 'Must be from 1 to 1440.' },
    { type: 'moving_down_percent', fill: { Percent: '1', 'Within (minutes)': '2.5' }, field: 'Within (minutes)', message: 'Enter a whole number.' },
    { type: 'rsi_below', fill: { 'RSI level': '100' }, field: 'RSI level', message: 'Must be above 0 and below 100.' },
    { type: 'rsi_above', fill: { 'RSI period': '1' }, field: 'RSI period', message: 'Must be from 2 to 500.' },
    { type: 'ma_crossover', fill: { 'Fast period': '200', 'Slow period': '50' }, field: 'Fast period', message: 'The fast period must be shorter than the slow one.' },
    { type: 'macd_signal_cross', fill: { 'Signal period': '501' }, field: 'Signal period', message: 'Must be from 2 to 500.' },
    { type: 'volatility_above', fill: { 'Volatility above (%)': '0' }, field: 'Volatility above (%)', message: 'Must be above 0 and at most 10000.' },
    { type: 'volatility_spike', fill: { 'Times its average': '1' }, field: 'Times its average', message: 'Must be above 1 and at most 100.' },
    { type: 'volatility_spike', fill: { 'Volatility bars': '50', 'Average over (bars)': '50' }, field: 'Average over (bars)', message: 'The average window must be longer' },
    { type: 'atr_above', fill: { 'ATR above': '' }, field: 'ATR above', message: 'Enter a number.' },
    { type: 'bollinger_breakout', fill: { 'Bars earlier': '0' }, field: 'Bars earlier', message: 'Must be from 1 to 500.' },
  ];

  it.each(invalid)('refuses $field = $fill ($type)', async ({ type: conditionType, fill, field, message }) => {
    const { api, dialog } = await openNewAlert();
    type(dialog, 'Name', 'x');
    await pickSymbol(dialog, 'btc', 'BTCUSDT');
    fireEvent.change(dialog.getByLabelText('Condition type'), { target: { value: conditionType } });
    for (const [label, value] of Object.entries(fill)) type(dialog, label, value);

    fireEvent.click(dialog.getByRole('button', { name: 'Create alert' }));

    expect(dialog.getByLabelText(field)).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(dialog.getByLabelText(field)).toHaveFocus();
    expect(api.calls('POST')).toHaveLength(0);
  });

  it('checks the cooldown, the expiry and the webhook URL', async () => {
    const { api, dialog } = await openNewAlert();
    type(dialog, 'Name', 'x');
    await pickSymbol(dialog, 'btc', 'BTCUSDT');
    type(dialog, 'Price level', '1');
    fireEvent.click(dialog.getByRole('radio', { name: 'Every time' }));
    type(dialog, 'Cooldown (seconds)', '86401');
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Expires' }));
    type(dialog, 'Expires at', '2001-01-01T00:00');
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Webhook' }));
    type(dialog, 'Webhook URL', 'ftp://example.com/hook');

    fireEvent.click(dialog.getByRole('button', { name: 'Create alert' }));

    expect(dialog.getByLabelText('Cooldown (seconds)')).toHaveAccessibleDescription(/Must be from 0 to 86400\./);
    expect(dialog.getByLabelText('Expires at')).toHaveAccessibleDescription(/Must be in the future\./);
    expect(dialog.getByLabelText('Webhook URL')).toHaveAccessibleDescription(/Enter an http:\/\/ or https:\/\/ URL\./);
    expect(api.calls('POST')).toHaveLength(0);
  });

  it('refuses an opening gap out of range, and on a market without sessions next to the condition type', async () => {
    const { api, dialog } = await openNewAlert();
    type(dialog, 'Name', 'Gap');
    await pickSymbol(dialog, 'btc', 'BTCUSDT');
    fireEvent.change(dialog.getByLabelText('Condition type'), { target: { value: 'opening_gap' } });
    expect(dialog.getByLabelText('Direction')).toHaveValue('any');
    type(dialog, 'Gap above (%)', '0');

    fireEvent.click(dialog.getByRole('button', { name: 'Create alert' }));

    expect(dialog.getByLabelText('Condition type')).toHaveAccessibleDescription('An opening gap needs a market with sessions: pick a stock or an ETF.');
    expect(dialog.getByLabelText('Condition type')).toHaveFocus();
    expect(dialog.getByLabelText('Gap above (%)')).toHaveAccessibleDescription(expect.stringContaining('Must be above 0 and at most 1000.'));
    expect(api.calls('POST')).toHaveLength(0);
  });

  it('shows the api field errors next to their fields', async () => {
    const { api, dialog } = await openNewAlert();
    type(dialog, 'Name', 'x');
    // Typed, not picked: the api says whether the market exists.
    type(dialog, 'Symbol', 'zzz');
    type(dialog, 'Price level', '1');
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Webhook' }));
    type(dialog, 'Webhook URL', 'http://127.0.0.1/hook');
    api.nextWriteReply = {
      status: 400,
      body: {
        error: {
          code: 'validation_failed',
          message: 'Invalid input: symbol, webhookUrl',
          details: [
            { field: 'symbol', message: 'unknown symbol ZZZ' },
            { field: 'webhookUrl', message: 'must not point at a loopback or private address' },
          ],
          requestId: 'r',
        },
      },
    };

    const request = await submit(dialog, api);

    expect(request.body).toMatchObject({ symbol: 'ZZZ', webhookUrl: 'http://127.0.0.1/hook' });
    await waitFor(() => expect(dialog.getByRole('combobox', { name: 'Symbol' })).toHaveAccessibleDescription(/unknown symbol ZZZ/));
    expect(dialog.getByLabelText('Webhook URL')).toHaveAccessibleDescription(/must not point at a loopback or private address/);
    expect(dialog.getByRole('alert')).toHaveTextContent('Please correct the fields marked below.');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('shows the plan-limit message when the api refuses another active alert', async () => {
    const { api, dialog } = await openNewAlert();
    type(dialog, 'Name', 'x');
    await pickSymbol(dialog, 'btc', 'BTCUSDT');
    type(dialog, 'Price level', '1');
    api.nextWriteReply = { status: 403, body: { error: { code: 'plan_limit', message: 'Your free plan allows 5 active alerts; you have 5.', requestId: 'r' } } };

    await submit(dialog, api);

    const alert = await dialog.findByRole('alert');
    expect(alert).toHaveTextContent('Your free plan allows 5 active alerts; you have 5.');
    expect(within(alert).getByRole('link', { name: 'Compare plans' })).toHaveAttribute('href', '/pricing');
    expect(screen.queryByRole('rowheader', { name: /^x/ })).not.toBeInTheDocument();
  });
});

describe('alert dialog: editing and keyboard', () => {
  it('opens filled in and saves the changes with a PATCH', async () => {
    const api = new FakeAlertsApi([
      apiAlert({ id: 7, name: 'SPY trend', symbol: 'SPY', marketType: 'etf', condition: { type: 'ma_crossover', ma: 'ema', fast: 9, slow: 21, direction: 'up' }, interval: '15m', frequency: 'once', expiresAt: '2099-01-02T03:04:00.000Z', useAudio: true, audioMessage: 'Trend turned', webhookUrl: 'https://hooks.example.com/a', webhookSecret: 's'.repeat(64) }),
    ]);
    installFakeApi(signedInSession(), api.handler);
    renderApp('/dashboard/alerts');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit SPY trend' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Edit alert “SPY trend”' }));

    expect(dialog.getByLabelText('Name')).toHaveValue('SPY trend');
    expect(dialog.getByRole('combobox', { name: 'Symbol' })).toHaveValue('SPY');
    expect(dialog.getByLabelText('Condition type')).toHaveValue('ma_crossover');
    expect(dialog.getByLabelText('Average')).toHaveValue('ema');
    expect(dialog.getByLabelText('Fast period')).toHaveValue('9');
    expect(dialog.getByLabelText('Slow period')).toHaveValue('21');
    expect(dialog.getByLabelText('Direction')).toHaveValue('up');
    expect(dialog.getByLabelText('Bar interval')).toHaveValue('15m');
    expect(dialog.getByLabelText('Expires at')).toHaveValue(
      (() => {
        const d = new Date('2099-01-02T03:04:00.000Z');
        const p = (n: number) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
      })(),
    );
    expect(dialog.getByLabelText('Message to speak')).toHaveValue('Trend turned');
    expect(dialog.getByLabelText('Signing secret')).toHaveValue('s'.repeat(64));

    type(dialog, 'Slow period', '50');
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Webhook' }));
    const request = await submit(dialog, api, 'Save alert');

    expect(request.path).toBe('/api/alerts/7');
    expect(request.body).toMatchObject({
      name: 'SPY trend',
      symbol: 'SPY',
      condition: { type: 'ma_crossover', ma: 'ema', fast: 9, slow: 50, direction: 'up' },
      interval: '15m',
      frequency: 'once',
      expiresAt: '2099-01-02T03:04:00.000Z',
      webhookUrl: null,
      useAudio: true,
      audioMessage: 'Trend turned',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('EMA(9) crosses EMA(50) up (15m bars)')).toBeInTheDocument();
  });

  it('closes on Esc and gives focus back to the button that opened it', async () => {
    await openNewAlert();
    const dialog = screen.getByRole('dialog', { name: 'New alert' });
    expect(within(dialog).getByLabelText('Name')).toHaveFocus();

    fireEvent.keyDown(within(dialog).getByLabelText('Name'), { key: 'Escape' });

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New alert' })).toHaveFocus();
  });

  it('keeps Tab inside the dialog', async () => {
    await openNewAlert();
    const dialog = screen.getByRole('dialog', { name: 'New alert' });
    const close = within(dialog).getByRole('button', { name: 'Close' });
    const create = within(dialog).getByRole('button', { name: 'Create alert' });

    create.focus();
    fireEvent.keyDown(create, { key: 'Tab' });
    expect(close).toHaveFocus();
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(create).toHaveFocus();
  });

  it('Esc in the open market list closes the list, not the dialog', async () => {
    const { dialog } = await openNewAlert();
    type(dialog, 'Symbol', 'btc');
    await dialog.findByRole('option', { name: /^BTCUSDT/ });
    fireEvent.keyDown(dialog.getByRole('combobox', { name: 'Symbol' }), { key: 'ArrowDown' });
    expect(dialog.getByRole('option', { name: /^BTCUSD\b/ })).toHaveAttribute('aria-selected', 'true');

    fireEvent.keyDown(dialog.getByRole('combobox', { name: 'Symbol' }), { key: 'Escape' });

    expect(dialog.getByRole('combobox', { name: 'Symbol' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});

describe('alert dialog: voice', () => {
  it('lists the voices once the browser loads them and tests the chosen one', async () => {
    const speech = installSpeech({ voicesLoaded: false });
    const { dialog } = await openNewAlert();
    type(dialog, 'Name', 'BTC breakout');
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Speak this alert aloud' }));
    const voice = dialog.getByLabelText('Voice');
    expect(within(voice).getAllByRole('option').map((option) => option.textContent)).toEqual(['Browser default']);

    act(() => speech.loadVoices());

    await waitFor(() => expect(within(voice).getAllByRole('option')).toHaveLength(3));
    expect(within(voice).getAllByRole('option').map((option) => option.textContent)).toEqual(['Browser default', 'Daniel (en-GB)', 'Samantha (en-US)']);

    // Without a message the notification title is spoken.
    fireEvent.click(dialog.getByRole('button', { name: 'Test voice' }));
    fireEvent.change(voice, { target: { value: 'com.apple.voice.Samantha' } });
    type(dialog, 'Message to speak', 'Bitcoin is breaking out');
    fireEvent.click(dialog.getByRole('button', { name: 'Test voice' }));

    expect(speech.spoken()).toEqual([
      { text: 'BTC breakout Alert Triggered', voice: null },
      { text: 'Bitcoin is breaking out', voice: 'com.apple.voice.Samantha' },
    ]);
    expect(dialog.getByText('Speaking: “Bitcoin is breaking out”')).toBeInTheDocument();
  });

  it('says so when the browser cannot speak', async () => {
    const { dialog } = await openNewAlert();
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Speak this alert aloud' }));
    expect(dialog.queryByLabelText('Voice')).not.toBeInTheDocument();

    fireEvent.click(dialog.getByRole('button', { name: 'Test voice' }));

    expect(dialog.getByText(/This browser cannot speak: it has no speech synthesis/)).toBeInTheDocument();
  });
});
