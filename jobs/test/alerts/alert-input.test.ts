import { alertConditionSchema, type AlertCondition } from '../../src/alerts/alert-conditions';
import { alertThreshold, checkWebhookUrl, createAlertBodySchema, patchAlertBodySchema, resolveAlertInterval } from '../../src/alerts/alert-input';
import { isPublicAddressHost } from '../../src/sources/outbound-guard';

const condition = (value: unknown) => alertConditionSchema.parse(value) as AlertCondition;

describe('alert input', () => {
  it.each([
    [{ type: 'crossing', value: '42' }, '42'],
    [{ type: 'less_than', value: '0.0000000001' }, '0.0000000001'],
    [{ type: 'outside_channel', low: '90.5', high: '110' }, '90.5'],
    [{ type: 'moving_down', amount: '3', minutes: 5 }, '3'],
    [{ type: 'moving_up_percent', percent: '1.25', minutes: 5 }, '1.25'],
    [{ type: 'rsi_above', level: 70.123456789012 }, '70.123456789'],
    [{ type: 'price_crossing_ma', period: 200 }, '200'],
    [{ type: 'ma_crossover', fast: 9, slow: 21 }, '9'],
    [{ type: 'macd_signal_cross' }, '12'],
  ])('stores the main threshold of %j as %s (a numeric(30,10) decimal)', (input, expected) => {
    expect(alertThreshold(condition(input))).toBe(expected);
  });

  it('gives technical conditions a bar interval (1h unless asked or kept) and price conditions none', () => {
    const rsi = condition({ type: 'rsi_below', level: 30 });
    const price = condition({ type: 'greater_than', value: '1' });
    expect(resolveAlertInterval(rsi, undefined)).toEqual({ interval: '1h' });
    expect(resolveAlertInterval(rsi, '15m')).toEqual({ interval: '15m' });
    expect(resolveAlertInterval(rsi, undefined, '4h')).toEqual({ interval: '4h' });
    expect(resolveAlertInterval(price, undefined, '4h')).toEqual({ interval: null });
    expect(resolveAlertInterval(price, '1h')).toEqual({ issue: { field: 'interval', message: expect.stringMatching(/only technical/) } });
  });

  it('names the condition type when it is unknown', () => {
    const result = createAlertBodySchema.safeParse({ name: 'x', symbol: 'AAPL', condition: { type: 'lunar', value: '1' } });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['condition.type']);
  });

  it('applies no defaults to a PATCH body, so unsent fields keep their stored values', () => {
    expect(patchAlertBodySchema.parse({ name: 'renamed' })).toEqual({ name: 'renamed' });
    expect(createAlertBodySchema.parse({ name: 'n', symbol: 'AAPL', condition: { type: 'greater_than', value: '1' } })).toEqual({
      name: 'n',
      symbol: 'AAPL',
      condition: { type: 'greater_than', value: '1' },
    });
  });

  it.each([
    ['127.0.0.1', true],
    ['127.12.0.9', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['[::1]', true],
    ['[fd12:3456::1]', true],
    ['[fe80::1]', true],
    ['[::ffff:a00:1]', true],
    ['[::ffff:808:808]', false],
    ['[2606:4700::1111]', false],
    ['localhost', true],
    ['api.localhost', true],
    ['8.8.8.8', false],
    ['hooks.example.com', false],
  ])('judges %s private: %s', (host, expected) => {
    expect(isPublicAddressHost(host)).toBe(!expected);
  });

  it('requires https and a public host for webhooks in production only', () => {
    const production = { production: true };
    expect(checkWebhookUrl('https://hooks.example.com/x', production)).toBeNull();
    expect(checkWebhookUrl('http://hooks.example.com/x', production)).toEqual({ field: 'webhookUrl', message: 'must be an https URL' });
    expect(checkWebhookUrl('https://10.0.0.5/x', production)?.message).toMatch(/loopback or private/);
    expect(checkWebhookUrl('https://[::1]:8443/x', production)?.message).toMatch(/loopback or private/);
    // URL normalises other spellings of an address (decimal, hex) before the check.
    expect(checkWebhookUrl('https://2130706433/x', production)?.message).toMatch(/loopback or private/);
    expect(checkWebhookUrl('https://0x7f.1/x', production)?.message).toMatch(/loopback or private/);
    expect(checkWebhookUrl('http://127.0.0.1:9/x', { production: false })).toBeNull();
  });
});
