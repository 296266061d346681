import webpush from 'web-push';
import { marketNotificationTexts } from '../../src/market-hours/market-notification';
import { MAX_PUSH_PAYLOAD_BYTES, PushSender, encodePushPayload, parseRetryAfter } from '../../src/notifications/push-sender';
import { pushRetryDelayMs } from '../../src/notifications/push-delivery';
import { fixedClock } from '../../src/runtime/clock';
import { LocalPushService, browserKeys, decryptPushMessage } from '../../src/testing/push-service';

const push = { ttlSeconds: 60, urgency: 'normal' as const, topic: 'market-XNYS', url: '/dashboard/exchanges' };

describe('notifications: the web push sender against a local push service', () => {
  const service = new LocalPushService();
  const keys = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@example.test', source: 'config' as const };
  let sender: PushSender;

  beforeAll(async () => {
    await service.start();
  });
  beforeEach(() => {
    sender = new PushSender(keys, { timeoutMs: 300, clock: fixedClock('2026-11-23T14:30:00Z'), allowPrivate: true });
    service.received.length = 0;
  });
  afterEach(() => sender.close());
  afterAll(() => service.stop());

  it('gives up a push service that does not answer within the socket timeout, as retryable', async () => {
    service.reply = () => 'hang';
    const browser = browserKeys();
    const started = Date.now();
    const outcome = await sender.send({ endpoint: service.endpoint('slow'), ...browser }, Buffer.from('{}'), push);
    expect(outcome).toMatchObject({ kind: 'retry', status: null, reason: expect.stringContaining('timeout') });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('classifies answers: 201 sent, 410 gone, 429 retry with Retry-After, 400 rejected', async () => {
    const browser = browserKeys();
    const target = { endpoint: service.endpoint('x'), ...browser };
    const answers = [{ status: 201 }, { status: 410 }, { status: 429, headers: { 'Retry-After': '7' } }, { status: 400 }];
    service.reply = (_p, i) => answers[i];
    const outcomes = [];
    for (let i = 0; i < answers.length; i++) outcomes.push(await sender.send(target, Buffer.from('{"a":1}'), push));
    expect(outcomes.map((o) => o.kind)).toEqual(['sent', 'gone', 'retry', 'rejected']);
    expect(outcomes[2]).toMatchObject({ status: 429, retryAfterMs: 7000 });
    expect(decryptPushMessage(service.received[0].body, browser).toString()).toBe('{"a":1}');
  });
});

describe('notifications: push payloads and retry timing', () => {
  it('keeps an encoded payload under the push size limit by shortening the body', () => {
    const encoded = encodePushPayload({ title: 'Big', body: 'x'.repeat(10_000), url: '/' });
    expect(encoded.length).toBeLessThanOrEqual(MAX_PUSH_PAYLOAD_BYTES);
    const parsed = JSON.parse(encoded.toString());
    expect(parsed.title).toBe('Big');
    expect(parsed.body.endsWith('…')).toBe(true);
    expect(encodePushPayload({ title: 'Small', body: 'ok', url: '/' }).toString()).toBe('{"title":"Small","body":"ok","url":"/"}');
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = new Date('2026-11-23T14:30:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 14:30:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });

  it('waits Retry-After when given (capped at an hour), else backs off exponentially', () => {
    expect(pushRetryDelayMs(1, 5000)).toBe(5000);
    expect(pushRetryDelayMs(1, 10 * 3600_000)).toBe(3600_000);
    expect([1, 2, 3, 4].map((a) => pushRetryDelayMs(a, null))).toEqual([2000, 4000, 8000, 16000]);
  });
});

describe('market-hours: notification texts (spec section 9)', () => {
  it('words each kind as the spec does, with the minutes left', () => {
    expect(marketNotificationTexts('Nasdaq', 'opening_soon', 1)).toEqual({ title: 'Nasdaq opening soon', message: 'Nasdaq will open in 1 minute' });
    expect(marketNotificationTexts('Nasdaq', 'closing_soon', 10)).toEqual({ title: 'Nasdaq closing soon', message: 'Nasdaq will close in 10 minutes' });
    expect(marketNotificationTexts('Nasdaq', 'closed', 0)).toEqual({ title: 'Nasdaq now closed', message: 'Nasdaq has closed for trading' });
  });
});
