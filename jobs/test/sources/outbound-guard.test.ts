import webpush from 'web-push';
import { fixedClock } from '../../src';
import { PushSender } from '../../src/notifications/push-sender';
import { PrivateAddressError, createPublicOnlyLookup, isPublicAddress, isPublicAddressHost, productionOutboundUrlProblem } from '../../src/sources/outbound-guard';
import { LocalPushService, browserKeys } from '../../src/testing/push-service';

describe('outbound guard (SSRF): only public unicast addresses', () => {
  it('classifies addresses, IPv4-mapped IPv6 as the IPv4 it carries', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect([address, isPublicAddress(address)]).toEqual([address, true]);
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1', '224.0.0.1', 'not-an-ip']) {
      expect([address, isPublicAddress(address)]).toEqual([address, false]);
    }
  });

  it('judges URL hosts: literals and localhost now, other names at connect time', () => {
    expect(isPublicAddressHost('[::1]')).toBe(false);
    expect(isPublicAddressHost('localhost')).toBe(false);
    expect(isPublicAddressHost('api.localhost')).toBe(false);
    expect(isPublicAddressHost('169.254.169.254')).toBe(false);
    expect(isPublicAddressHost('push.example.com')).toBe(true);
    expect(isPublicAddressHost('8.8.4.4')).toBe(true);
  });

  it('in production, a push endpoint or webhook URL must be https on a host that is not local or private', () => {
    expect(productionOutboundUrlProblem('https://fcm.googleapis.com/fcm/send/abc')).toBeNull();
    expect(productionOutboundUrlProblem('http://push.example.com/x')).toBe('must be an https URL');
    expect(productionOutboundUrlProblem('https://127.0.0.1:8443/push')).toBe('must not point at a loopback or private address');
    expect(productionOutboundUrlProblem('https://[fd00::1]/push')).toBe('must not point at a loopback or private address');
    expect(productionOutboundUrlProblem('https://localhost/push')).toBe('must not point at a loopback or private address');
  });

  it('refuses a name when any address it resolves to is not public', async () => {
    const answers: Record<string, { address: string; family: number }[]> = {
      'ok.example': [{ address: '93.184.216.34', family: 4 }],
      'mixed.example': [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
    };
    const lookup = createPublicOnlyLookup((host, _options, callback) => callback(null, answers[host] ?? []));
    const resolve = (host: string) =>
      new Promise((resolvePromise, reject) => lookup(host, {}, (error, address) => (error ? reject(error) : resolvePromise(address))));
    await expect(resolve('ok.example')).resolves.toBe('93.184.216.34');
    await expect(resolve('mixed.example')).rejects.toBeInstanceOf(PrivateAddressError);
    await expect(resolve('none.example')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  describe('the web push sender', () => {
    const service = new LocalPushService();
    const keys = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@example.test', source: 'config' as const };
    const push = { ttlSeconds: 60, urgency: 'normal' as const, topic: null, url: '/' };
    beforeAll(() => service.start());
    afterAll(() => service.stop());

    it('refuses a loopback endpoint without sending when private addresses are not allowed, and sends when they are', async () => {
      const target = { endpoint: service.endpoint('guarded'), ...browserKeys() };
      expect(new URL(target.endpoint).hostname).toBe('127.0.0.1');
      service.received.length = 0;
      const guarded = new PushSender(keys, { timeoutMs: 1000, clock: fixedClock('2026-11-23T14:30:00Z'), allowPrivate: false });
      const open = new PushSender(keys, { timeoutMs: 1000, clock: fixedClock('2026-11-23T14:30:00Z'), allowPrivate: true });
      service.reply = () => ({ status: 201 });
      try {
        expect(await guarded.send(target, Buffer.from('{}'), push)).toMatchObject({ kind: 'rejected', reason: expect.stringContaining('not a public address') });
        expect(service.received).toHaveLength(0);
        expect(await open.send(target, Buffer.from('{}'), push)).toMatchObject({ kind: 'sent' });
        expect(service.received).toHaveLength(1);
      } finally {
        guarded.close();
        open.close();
      }
    });
  });
});
