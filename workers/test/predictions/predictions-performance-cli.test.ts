import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { recomputePerformance } from '@tickerbell/jobs/predictions';
import { testQueuePrefix } from '@tickerbell/jobs/testing/test-redis';
import { runCliCaptured } from '../cli-capture';

// `npm run cli -- predictions performance --user <email>`: the stored scorecard as JSON with the
// field names of PredictionPerformanceView; an unknown email is an error (exit 1).

describe('CLI: predictions performance --user', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();

  beforeAll(async () => {
    db = await createTestDatabase();
    const [ann] = (await db.dataSource.query(`INSERT INTO users (email) VALUES ('ann@example.test'), ('ben@example.test') RETURNING id`)) as { id: number }[];
    const [{ id: marketId }] = (await db.dataSource.query(
      `INSERT INTO prediction_markets (polymarket_id, slug, question, category, outcomes, yes_price, closed, is_active, closed_time, resolution, resolved_at, content_hash, data_source, synced_at)
       VALUES ('1', 'rain', 'Will it rain?', 'Weather', '["Yes","No"]', 0.4, true, false, '2025-05-10Z', 'yes', '2025-05-11Z', 'h', 'replay', '2025-05-11Z') RETURNING id`,
    )) as { id: number }[];
    // One forecast of 0.8 against a market at 0.4, resolved YES: Brier 0.04, the market's 0.36, points 100 × (0.36 − 0.04) = 32.
    await db.dataSource.query(
      `INSERT INTO user_predictions (user_id, market_id, user_prediction, market_price, input_form, input_text, date_made, resolution, date_resolved, points, updated_at)
       VALUES ($1, $2, 0.8, 0.4, 'percent', '80%', '2025-05-01Z', 'yes', '2025-05-11Z', 32, '2025-05-11Z')`,
      [ann.id, marketId],
    );
    await recomputePerformance(db.dataSource, ann.id, new Date('2025-05-11T01:00:00Z'));
  });
  afterAll(async () => {
    await db.drop();
  });

  const cli = (args: string[]) => runCliCaptured(args, db.url, prefix);

  it('prints the scorecard with the view field names', async () => {
    const result = await cli(['predictions', 'performance', '--user', 'ANN@example.test']);
    expect(result.code).toBe(0);
    expect(result.err).toBe('');
    const view = JSON.parse(result.out);
    expect(Object.keys(view).sort()).toEqual(
      [
        'totalPredictions',
        'correctPredictions',
        'accuracy',
        'brierScore',
        'logScore',
        'decomposition',
        'calibration',
        'market',
        'skill',
        'totalPoints',
        'bestCategories',
        'improvementAreas',
        'trend',
        'lastCalculated',
      ].sort(),
    );
    expect(view).toMatchObject({
      totalPredictions: 1,
      correctPredictions: 1,
      accuracy: 1,
      brierScore: 0.04,
      market: { brier: 0.36 },
      skill: { brier: 0.32 },
      totalPoints: 32,
      lastCalculated: '2025-05-11T01:00:00.000Z',
      trend: [expect.objectContaining({ month: '2025-05', count: 1 })],
    });
    expect(view.calibration[8]).toMatchObject({ from: 0.8, to: 0.9, count: 1, meanForecast: 0.8, observedRate: 1 });
  });

  it('prints the empty scorecard of a user with no resolved forecast, and refuses an unknown email', async () => {
    const ben = await cli(['predictions', 'performance', '--user', 'ben@example.test']);
    expect(ben.code).toBe(0);
    expect(JSON.parse(ben.out)).toMatchObject({ totalPredictions: 0, accuracy: null, brierScore: null, lastCalculated: null });
    expect(await cli(['predictions', 'performance', '--user', 'nobody@example.test'])).toEqual({
      code: 1,
      out: '',
      err: 'error: No user with the email nobody@example.test\n',
    });
  });
});
