import pino from 'pino';
import type { Address, Hex } from 'viem';
import { keccak256, toHex } from 'viem';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { fixedClock } from '../../src/runtime/clock';
import type { JobContext } from '../../src/runtime/job-handler';
import { JobQueues } from '../../src/runtime/job-queues';
import { createWorkerConnection } from '../../src/runtime/redis';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { notificationChannel } from '../../src/notifications/notification-channel';
import { notificationEmailText } from '../../src/notifications/notify';
import {
  alertWhaleBlock,
  digestOf,
  dispatchWhaleRetractions,
  publishBlockTransfers,
  sendWhaleDigests,
  WHALE_ALERT_MESSAGE_MAX,
  whaleAlertMessage,
  whaleTransfersChannel,
} from '../../src/whales/whales-alerts';
import { whaleAlertsOfUser, type WhaleAlertCandidate } from '../../src/whales/whales-alerts.store';
import { createWhaleWatch, isWhaleAddress } from '../../src/whales/whales-watchlists.store';
import { createEntitlements } from '../../src/billing/entitlements';
import { recordBlock, rollbackFrom, type WhaleTransferRecord } from '../../src/whales/whales.store';
import type { WhaleTransferView } from '../../src/whales/whales.shapes';

// Alerts of recorded blocks against users' watches, exactly once (retries, two workers), their
// retraction by a reorg, digests with a fixed clock, and the live feed's publication. Real
// PostgreSQL and Redis; blocks are recorded with the store as the scanner records them.

const CHAIN = 'ethereum';
const EXCHANGE: Address = '0x28c6c06298d514db089934071355e5743bf21d60';
const WALLET: Address = '0xab5801a7d398351b8be11c439e05c5b3259aec9b';
const OTHER: Address = '0x1111111111111111111111111111111111111111';
const USDC: Address = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';

const hashOf = (...parts: (string | number)[]) => keccak256(toHex(parts.join(':'))) as Hex;

interface Move {
  from: Address;
  to: Address;
  token?: Address | null;
  amount: string;
  raw: bigint;
  usd: string | null;
  type?: WhaleTransferRecord['transactionType'];
  isWhale?: boolean;
}

describe('whales alerts (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = createWorkerConnection(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  const clock = fixedClock('2025-03-04T10:20:00Z');
  let context: JobContext;
  const users: Record<'ann' | 'ben' | 'cat' | 'dan', number> = { ann: 0, ben: 0, cat: 0, dan: 0 };

  async function block(number: number, moves: Move[], salt = 'main'): Promise<Hex> {
    const hash = hashOf('block', number, salt);
    await db.dataSource.transaction((m) =>
      recordBlock(
        m,
        CHAIN,
        { number: BigInt(number), hash, parentHash: hashOf('block', number - 1, salt), timestamp: Math.floor(clock.now().getTime() / 1000) },
        moves.map((mv, i) => ({
          transfer: {
            txHash: hashOf('tx', number, salt, i),
            logIndex: mv.token ? i : null,
            token: mv.token ?? null,
            from: mv.from,
            to: mv.to,
            rawAmount: mv.raw,
            blockNumber: BigInt(number),
            blockHash: hash,
          },
          tokenSymbol: mv.token ? 'USDC' : 'ETH',
          tokenDecimals: mv.token ? 6 : 18,
          transactionType: mv.type ?? 'transfer',
          usdValue: mv.usd,
          usdPrice: null,
          priceSource: mv.usd === null ? null : 'simulated',
          isWhale: mv.isWhale ?? false,
        })),
        clock.now(),
      ),
    );
    return hash;
  }

  const notifications = async (userId: number) =>
    (await db.dataSource.query(`SELECT title, message, dedupe_key, details FROM notifications WHERE user_id = $1 ORDER BY id`, [userId])) as Array<{
      title: string;
      message: string;
      dedupe_key: string;
      details: Record<string, unknown>;
    }>;

  beforeAll(async () => {
    db = await createTestDatabase();
    context = { dataSource: db.dataSource, queues, redis, clock, logger: pino({ level: 'silent' }) };
    await db.dataSource.query(`INSERT INTO whale_addresses (address, label, address_type, exchange_name) VALUES ($1, 'Binance 14', 'exchange', 'Binance')`, [EXCHANGE]);
    const rows: { id: number }[] = await db.dataSource.query(`INSERT INTO users (email) SELECT unnest($1::varchar[]) RETURNING id`, [
      ['ann', 'ben', 'cat', 'dan'].map((n) => `${n}@example.test`),
    ]);
    [users.ann, users.ben, users.cat, users.dan] = rows.map((r) => r.id);
    const watch = (userId: number, fields: Partial<Parameters<typeof createWhaleWatch>[3]> = {}) =>
      createWhaleWatch(
        db.dataSource,
        userId,
        WALLET,
        { customLabel: null, alertEnabled: true, alertThreshold: null, alertFrequency: 'immediate', timeZone: 'UTC', ...fields },
        { entitlements: createEntitlements({ billingEnabled: false, graceDays: 7 }), now: new Date() },
      );
    await watch(users.ann, { customLabel: 'cold wallet', alertThreshold: '1000000' }); // immediate, $1M
    await watch(users.ben, { alertThreshold: '10000000' }); // immediate, $10M
    await watch(users.cat, { alertFrequency: 'hourly' }); // global threshold ($1M)
    await watch(users.dan, { alertFrequency: 'daily', timeZone: 'Asia/Tokyo', alertThreshold: '1' });
  });

  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    await db.drop();
  });

  it('says an alert in one short sentence, however long the labels, symbol and amount', () => {
    const candidate = (over: Partial<WhaleAlertCandidate>): WhaleAlertCandidate => ({
      transactionId: '1',
      txHash: hashOf('tx', 1),
      logIndex: -1,
      blockNumber: '1',
      token: null,
      tokenSymbol: 'ETH',
      amount: '1250',
      usdValue: '3912345.67',
      transactionType: 'exchange_outflow',
      from: EXCHANGE,
      to: '0x12ab000000000000000000000000000000009f0e',
      watchId: 1,
      userId: 1,
      addressId: 1,
      address: EXCHANGE,
      customLabel: null,
      frequency: 'immediate',
      ...over,
    });
    const labels = new Map([[EXCHANGE as string, { label: 'Binance 14', addressType: 'exchange', exchangeName: 'Binance' }]]);
    expect(whaleAlertMessage(candidate({}), labels)).toBe('1,250 ETH ($3.9M) Binance 14 → unknown wallet 0x12ab…9f0e · exchange outflow');
    // The longest inputs: labels and a custom label of 100 characters, a 20-character symbol, a 10^30 amount, an unpriced token.
    const long = 'A very long public label of an exchange wallet that somebody wrote out in full, with notes'.padEnd(100, '.');
    const worst = whaleAlertMessage(
      candidate({
        token: USDC,
        tokenSymbol: 'SUPERLONGTOKENSYMBOL',
        amount: '1000000000000000000000000000000.123456',
        usdValue: null,
        to: WALLET,
        address: WALLET,
        customLabel: 'x'.repeat(100),
        transactionType: 'transfer',
      }),
      new Map([
        [EXCHANGE as string, { label: long, addressType: 'exchange', exchangeName: 'Binance' }],
        [WALLET as string, { label: long, addressType: 'fund', exchangeName: null }],
      ]),
    );
    expect(worst.length).toBeLessThanOrEqual(WHALE_ALERT_MESSAGE_MAX);
    expect(worst).toMatch(/^1\.0e\+30 SUPERLONGTO… \(no USD price\) A very long public label of an… → A very long pub… \(x+…\) · wallet to wallet$/);
    expect(worst).not.toContain('https://');
  });

  it('validates addresses: lowercase or a correct EIP-55 checksum', () => {
    expect(isWhaleAddress('0xab5801a7d398351b8be11c439e05c5b3259aec9b')).toBe(true);
    expect(isWhaleAddress('0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B')).toBe(true);
    expect(isWhaleAddress('0xAB5801a7D398351b8bE11C439e05C5B3259aeC9B')).toBe(false);
    expect(isWhaleAddress('0xab5801a7d398351b8be11c439e05c5b3259aec9')).toBe(false);
  });

  it('alerts each watch whose threshold the transfer meets, once, across retries and two workers at once', async () => {
    const hash = await block(100, [
      { from: EXCHANGE, to: WALLET, amount: '5000', raw: 5000n * 10n ** 18n, usd: '17100000.00', type: 'exchange_outflow', isWhale: true },
      { from: WALLET, to: OTHER, token: USDC, amount: '2000000', raw: 2_000_000n * 10n ** 6n, usd: '2000000.00' },
      // Unpriced: no USD against a USD threshold; cat (no threshold of her own) only because it is a whale transfer by token threshold.
      { from: OTHER, to: WALLET, token: USDC, amount: '3', raw: 3n * 10n ** 6n, usd: null, isWhale: false },
    ]);
    const input = { chain: CHAIN, hash, globalUsdThreshold: 1_000_000 };
    const [a, b] = await Promise.all([alertWhaleBlock(context, input), alertWhaleBlock(context, input)]);
    const again = await alertWhaleBlock(context, input);
    const inserted = [a, b, again].reduce((n, o) => n + (o.status === 'alerted' ? o.inserted : 0), 0);
    // ann: both ($1M), ben: the $17.1M one, cat: both (pending, hourly), dan: both (pending, daily).
    expect(inserted).toBe(7);
    expect(again).toMatchObject({ status: 'alerted', inserted: 0 });

    const ann = await notifications(users.ann);
    expect(ann).toHaveLength(2);
    // One short sentence; the explorer link travels beside it (details.link), shown as a link by the app and the email.
    expect(ann[0].message).toBe('5,000 ETH ($17.1M) Binance 14 → cold wallet (0xab58…ec9b) · exchange outflow');
    expect(ann[0].details).toMatchObject({
      explorerUrl: `https://etherscan.io/tx/${hashOf('tx', 100, 'main', 0)}`,
      link: { href: `https://etherscan.io/tx/${hashOf('tx', 100, 'main', 0)}`, label: 'View the transaction on Etherscan' },
    });
    expect(ann[1].message).toBe('2,000,000 USDC ($2M) cold wallet (0xab58…ec9b) → unknown wallet 0x1111…1111 · wallet to wallet');
    expect(notificationEmailText({ ...ann[0], id: '1', user_id: users.ann, type: 'warning', activity_type: null, exchange_id: null, symbol_id: null, read_at: null, created_at: new Date() })).toContain(
      `5,000 ETH ($17.1M) Binance 14 → cold wallet (0xab58…ec9b) · exchange outflow.\n\nView the transaction on Etherscan: https://etherscan.io/tx/${hashOf('tx', 100, 'main', 0)}\n`,
    );
    expect(await notifications(users.ben)).toHaveLength(1);
    expect(await notifications(users.cat)).toHaveLength(0);
    expect((await whaleAlertsOfUser(db.dataSource, users.cat)).map((x) => x.status)).toEqual(['pending', 'pending']);
    expect((await whaleAlertsOfUser(db.dataSource, users.ann)).map((x) => x.status)).toEqual(['sent', 'sent']);
  });

  it('a reorg deletes pending alerts of the orphaned block and retracts sent ones with one correction each', async () => {
    const hash = await block(101, [{ from: WALLET, to: EXCHANGE, amount: '1000', raw: 10n ** 21n, usd: '3420000.00', type: 'exchange_inflow', isWhale: true }]);
    await alertWhaleBlock(context, { chain: CHAIN, hash, globalUsdThreshold: 1_000_000 });
    expect(await notifications(users.ann)).toHaveLength(3);
    const catBefore = (await whaleAlertsOfUser(db.dataSource, users.cat)).length;

    const sub = redis.duplicate();
    const published: string[] = [];
    await sub.subscribe(notificationChannel(prefix));
    sub.on('message', (_channel, text) => published.push(text));
    await db.dataSource.transaction((m) => rollbackFrom(m, CHAIN, 101n));
    // Twice (a repeated rollback of the same height): no second correction.
    await db.dataSource.transaction((m) => rollbackFrom(m, CHAIN, 101n));
    await dispatchWhaleRetractions(context, CHAIN, 101);

    const ann = await notifications(users.ann);
    expect(ann).toHaveLength(4);
    expect(ann[3].message).toMatch(/^Correction: the transfer 1,000 ETH \(\$3\.4M\) cold wallet \(0xab58…ec9b\) → Binance 14 \(transaction 0x[0-9a-f]{64}\) was removed by a chain reorganisation/);
    expect(ann[3].details.link).toEqual({ href: expect.stringMatching(/^https:\/\/etherscan\.io\/tx\/0x[0-9a-f]{64}$/), label: 'View the transaction on Etherscan' });
    expect((await whaleAlertsOfUser(db.dataSource, users.ann))[0].status).toBe('retracted');
    expect((await whaleAlertsOfUser(db.dataSource, users.cat)).length).toBe(catBefore - 1);
    // The block is gone: a late alerts job for it does nothing.
    await expect(alertWhaleBlock(context, { chain: CHAIN, hash, globalUsdThreshold: 1_000_000 })).resolves.toEqual({ status: 'gone' });
    // The same transaction mined again in the new chain alerts again (the retracted alert does not block it).
    const again = await block(101, [{ from: WALLET, to: EXCHANGE, amount: '1000', raw: 10n ** 21n, usd: '3420000.00', type: 'exchange_inflow', isWhale: true }], 'main');
    await alertWhaleBlock(context, { chain: CHAIN, hash: again, globalUsdThreshold: 1_000_000 });
    expect(await notifications(users.ann)).toHaveLength(5);
    await new Promise<void>((resolve) => (published.length ? resolve() : sub.once('message', () => resolve())));
    sub.disconnect();
    expect(published.some((text) => text.includes('was removed by a chain reorganisation'))).toBe(true);
  });

  it('sends hourly digests at :00 UTC and daily ones at the local midnight of the watch, once', () => {
    const pending = (frequency: 'hourly' | 'daily', createdAt: string, timeZone = 'UTC') => ({
      id: 1,
      userId: 7,
      frequency,
      message: 'm',
      txHash: '0x',
      usdValue: null,
      createdAt: new Date(createdAt),
      timeZone,
    });
    expect(digestOf(pending('hourly', '2025-03-04T10:20:00Z'), new Date('2025-03-04T10:45:00Z'))).toBeNull();
    expect(digestOf(pending('hourly', '2025-03-04T10:20:00Z'), new Date('2025-03-04T11:00:00Z'))?.key).toBe('hourly:7:2025-03-04T11');
    // Tokyo is UTC+9: 2025-03-04T10:20Z is 19:20 local; local midnight is 15:00Z.
    expect(digestOf(pending('daily', '2025-03-04T10:20:00Z', 'Asia/Tokyo'), new Date('2025-03-04T14:45:00Z'))).toBeNull();
    expect(digestOf(pending('daily', '2025-03-04T10:20:00Z', 'Asia/Tokyo'), new Date('2025-03-04T15:00:00Z'))?.key).toBe('daily:7:2025-03-05:Asia/Tokyo');
  });

  it('digests collect the pending alerts into one notification per user and period, idempotently', async () => {
    clock.set('2025-03-04T10:45:00Z');
    expect(await sendWhaleDigests(context)).toEqual({ digests: 0, alerts: 0 });
    clock.set('2025-03-04T11:00:00Z');
    const [first, second] = await Promise.all([sendWhaleDigests(context), sendWhaleDigests(context)]);
    expect(first.digests + second.digests).toBe(1);
    expect(await sendWhaleDigests(context)).toEqual({ digests: 0, alerts: 0 });
    const cat = await notifications(users.cat);
    expect(cat).toHaveLength(1);
    expect(cat[0].dedupe_key).toBe(`whales:digest:hourly:${users.cat}:2025-03-04T11`);
    expect(cat[0].message.split('\n')[0]).toMatch(/^3 whale transfers on your watched addresses/);
    expect(await notifications(users.dan)).toHaveLength(0);
    clock.set('2025-03-04T15:00:00Z');
    expect(await sendWhaleDigests(context)).toMatchObject({ digests: 1 });
    expect((await notifications(users.dan))[0].dedupe_key).toBe(`whales:digest:daily:${users.dan}:2025-03-05:Asia/Tokyo`);
    expect((await whaleAlertsOfUser(db.dataSource, users.dan)).every((x) => x.status === 'sent' && x.digestKey !== null)).toBe(true);
  });

  it('publishes a block’s whale transfers and those of watched addresses on the live channel', async () => {
    const hash = await block(102, [
      { from: OTHER, to: WALLET, amount: '1', raw: 10n ** 18n, usd: '3420.00' }, // watched address
      { from: OTHER, to: OTHER, amount: '1', raw: 10n ** 18n, usd: '3420.00' }, // neither
    ]);
    const sub = redis.duplicate();
    const received: WhaleTransferView[] = [];
    await sub.subscribe(whaleTransfersChannel(prefix));
    const arrived = new Promise<void>((resolve) => sub.on('message', (_c, text) => (received.push(JSON.parse(text)), resolve())));
    expect(await publishBlockTransfers(context, CHAIN, hash)).toBe(1);
    await arrived;
    sub.disconnect();
    expect(received[0]).toMatchObject({ to: WALLET, tokenSymbol: 'ETH', usdValue: '3420.00', explorerUrl: `https://etherscan.io/tx/${received[0].txHash}`, fromLabel: null });
    expect(received[0].toLabel).toMatchObject({ address: WALLET, label: null, customLabel: null });
  });
});
