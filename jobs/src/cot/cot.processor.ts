import { UnrecoverableError } from 'bullmq';
import { defineHandler } from '../runtime/job-handler';
import { withSourceHealth, type CftcSource } from './cftc.client';
import { CotParseError } from './cftc.parse';
import type { CotConfig } from './cot.config';
import { fetchLatestCotReport, importCotYear } from './cot-pipeline';
import { recomputeCotAnalytics } from './cot-recompute';
import { findCotInstrument } from './cot.store';
import { fanOutCotAlert, queueCotNotify } from './cot-alerts';

export interface CotHandlerDeps {
  /** The source (live or replay), built once at start (cot.domain.ts). */
  source: () => CftcSource;
  config: () => Pick<CotConfig, 'COT_LOOKBACK'>;
}

/** Bad data never improves by retrying: fail the job for good, with the reason. */
async function permanentOnBadData<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof CotParseError) throw new UnrecoverableError(error.message);
    throw error;
  }
}

export function createCotHandlers(deps: CotHandlerDeps) {
  return [
    defineHandler('cot.fetch-latest', async (payload, { dataSource, queues, clock, logger }) => {
      const source = withSourceHealth(deps.source(), { dataSource, clock });
      const outcome = await permanentOnBadData(() => fetchLatestCotReport({ dataSource, source, queues, clock }, payload));
      logger.info({ ...outcome }, `cot: ${outcome.status}`);
      return outcome;
    }),
    defineHandler('cot.import-year', async ({ year }, { dataSource, queues, clock, logger }) => {
      const source = withSourceHealth(deps.source(), { dataSource, clock });
      const result = await permanentOnBadData(() => importCotYear({ dataSource, source, queues, clock }, year));
      logger.info({ year, rows: result.rows, positions: result.positions }, 'cot: imported a yearly archive');
      return result;
    }),
    defineHandler('cot.recompute-analytics', async ({ cftcCode, lookback }, { dataSource, queues, clock, logger }) => {
      const instrument = await findCotInstrument(dataSource, cftcCode);
      if (!instrument) throw new UnrecoverableError(`No COT instrument with code ${cftcCode}`);
      const counts = await recomputeCotAnalytics(dataSource, instrument.id, { lookback: lookback ?? deps.config().COT_LOOKBACK });
      const notifyQueued = await queueCotNotify({ dataSource, queues, clock }, instrument.id);
      logger.info({ cftcCode, ...counts, notifyQueued }, 'cot: analytics recomputed');
      return { ...counts, notifyQueued };
    }),
    defineHandler('cot.notify', async ({ cftcCode, reportDate }, { dataSource, queues, clock, logger }) => {
      const instrument = await findCotInstrument(dataSource, cftcCode);
      if (!instrument) throw new UnrecoverableError(`No COT instrument with code ${cftcCode}`);
      const outcome = await fanOutCotAlert({ dataSource, queues, clock }, instrument.id, reportDate);
      logger.info({ cftcCode, reportDate, ...outcome }, 'cot: alert fan-out');
      return outcome;
    }),
  ];
}
