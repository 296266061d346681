import { ALERTS_NOW, AlertsHarness, createAlert, patchAlert, type AlertsUser } from '../support/alerts-support';

// News alerts through the api (docs/alerts.md, "News conditions"): created with their condition
// echoed, and refused bodies that name the field at fault.
describe('news alerts api (real app, PostgreSQL, Redis, a signed-in user)', () => {
  const harness = new AlertsHarness();
  let ada: AlertsUser;

  async function storedRow(id: number) {
    const [row]: { condition: string; value: string; params: unknown; interval: string | null }[] = await harness.db.dataSource.query(
      'SELECT condition, value::text AS value, params, interval FROM alerts WHERE id = $1',
      [id],
    );
    return row;
  }

  async function alertCount(): Promise<number> {
    const [row]: { n: string }[] = await harness.db.dataSource.query('SELECT count(*) AS n FROM alerts WHERE user_id = $1', [ada.id]);
    return Number(row.n);
  }

  beforeAll(async () => {
    await harness.start();
    ada = await harness.user('ada-news-alerts@example.com');
  }, 60000);

  afterAll(async () => {
    await harness.stop();
  });

  beforeEach(() => harness.clock.set(ALERTS_NOW));

  it('creates a news alert with the defaults filled in: 201, the condition echoed, no interval, value 0', async () => {
    const created = await createAlert(ada, { name: 'Bitcoin news', symbol: 'BTCUSDT', condition: { type: 'news' } }).expect(201);
    const { alert } = created.body;
    expect(alert).toMatchObject({ name: 'Bitcoin news', symbol: 'BTCUSDT', isActive: true, interval: null, frequency: 'once_per_day' });
    expect(alert.condition).toEqual({ type: 'news', scope: 'any', digest: false });

    const read = await ada.agent.get(`/api/alerts/${alert.id}`).expect(200);
    expect(read.body.alert).toEqual(alert);
    const row = await storedRow(alert.id);
    expect(row).toMatchObject({ condition: 'news', params: { type: 'news', scope: 'any', digest: false }, interval: null });
    expect(Number(row!.value)).toBe(0);
  });

  it.each([
    ['filings only, as an hourly digest', 'AAPL', { type: 'news', scope: 'filings', digest: true }, { type: 'news', scope: 'filings', digest: true }],
    [
      'headlines with keywords (trimmed)',
      'ETHUSDT',
      { type: 'news', scope: 'keywords', keywords: [' ETF ', 'staking'] },
      { type: 'news', scope: 'keywords', keywords: ['ETF', 'staking'], digest: false },
    ],
  ])('creates a news alert for %s', async (_label, symbol, condition, echoed) => {
    const created = await createAlert(ada, { name: `News on ${symbol}`, symbol, condition, frequency: 'every_time' }).expect(201);
    expect(created.body.alert.condition).toEqual(echoed);
    expect(created.body.alert.frequency).toBe('every_time');
    expect((await storedRow(created.body.alert.id))?.params).toEqual(echoed);
  });

  it('edits a news alert’s scope to keywords with a PATCH, echoing the new condition', async () => {
    const created = await createAlert(ada, { name: 'SOL news', symbol: 'SOLUSDT', condition: { type: 'news' } }).expect(201);
    const patched = await patchAlert(ada, created.body.alert.id, { condition: { type: 'news', scope: 'keywords', keywords: ['Solana ETF'] } }).expect(200);
    expect(patched.body.alert.condition).toEqual({ type: 'news', scope: 'keywords', keywords: ['Solana ETF'], digest: false });
  });

  describe('refused bodies name the field', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['scope keywords without keywords', { type: 'news', scope: 'keywords' }, 'condition.keywords'],
      ['scope keywords with no keyword at all', { type: 'news', scope: 'keywords', keywords: [] }, 'condition.keywords'],
      ['a keyword of one character', { type: 'news', scope: 'keywords', keywords: ['ETF', 'x'] }, 'condition.keywords.1'],
      ['a keyword of one character once trimmed', { type: 'news', scope: 'keywords', keywords: ['  x  '] }, 'condition.keywords.0'],
      ['a keyword over 50 characters', { type: 'news', scope: 'keywords', keywords: ['k'.repeat(51)] }, 'condition.keywords.0'],
      ['eleven keywords', { type: 'news', scope: 'keywords', keywords: Array.from({ length: 11 }, (_, i) => `word${i}`) }, 'condition.keywords'],
      ['keywords with scope any', { type: 'news', scope: 'any', keywords: ['ETF'] }, 'condition.keywords'],
      ['keywords with the default scope', { type: 'news', keywords: ['ETF'] }, 'condition.keywords'],
      ['keywords with scope filings', { type: 'news', scope: 'filings', keywords: ['8-K'] }, 'condition.keywords'],
      ['an unknown scope', { type: 'news', scope: 'rumours' }, 'condition.scope'],
      ['a digest that is not a boolean', { type: 'news', digest: 'hourly' }, 'condition.digest'],
    ];

    it.each(cases)('refuses %s with a 400 naming the field, storing nothing', async (_label, condition, field) => {
      const before = await alertCount();
      const res = await createAlert(ada, { name: 'refused', symbol: 'BTCUSDT', condition }).expect(400);
      expect(res.body.error.code).toBe('validation_failed');
      const fields: string[] = res.body.error.details.map((d: { field: string }) => d.field);
      expect(fields).toEqual([field]);
      expect(await alertCount()).toBe(before);
    });

    it('refuses a bar interval on a news alert, naming interval', async () => {
      const res = await createAlert(ada, { name: 'refused', symbol: 'BTCUSDT', condition: { type: 'news' }, interval: '1h' }).expect(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain('interval');
    });
  });
});
