import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { systemClock } from '@tickerbell/jobs';
import {
  DefiLlamaYieldsClient,
  UniswapSubgraphClient,
  YieldsSourceError,
  ingestSnapshot,
  loadYieldsConfig,
  startYieldsReplay,
  streamDefiLlamaPools,
  yieldsIngestOptions,
  yieldsJobIds,
  type IngestOutcome,
  type IngestSources,
  type YieldPoolsSource,
} from '@tickerbell/jobs/yields';
import { CliError } from './cli-error';
import type { CliContext, CliIo } from './main';

/** `import` groups the file imports of every domain; other kinds add their own subcommand. */
function importGroup(program: Command): Command {
  return program.commands.find((c) => c.name() === 'import') ?? program.command('import').description('import data files');
}

const fmt = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, word: string) => `${fmt(n)} ${word}${n === 1 ? '' : 's'}`;

/** One line: what the snapshot held and what was stored. */
export function ingestSummary(o: IngestOutcome): string {
  if (o.status === 'exists') return `snapshot ${o.snapshotAt}: already stored (nothing written)`;
  const skipped = o.skipped.invalid + o.skipped.missing + o.skipped.absurd;
  return (
    `snapshot ${o.snapshotAt}: ${plural(o.seen, 'pool')} (${fmt(o.accepted)} kept; skipped ${fmt(skipped)}: ${o.skipped.invalid} invalid, ${o.skipped.missing} missing, ` +
    `${o.skipped.absurd} absurd); ${plural(o.stored, 'tracked pool')} stored; subgraph: ${o.subgraphError ? `unavailable (${o.subgraphError})` : plural(o.subgraphPools, 'pool')}` +
    `${o.subgraphDistrusted ? `, ${o.subgraphDistrusted} distrusted` : ''}; /chart backfills: ${o.chartBackfilled}${o.chartErrors ? ` (${o.chartErrors} failed)` : ''}; ${(o.ms / 1000).toFixed(1)} s`
  );
}

/** A saved /pools answer read from a file, streamed like the live answer; it has no /chart. */
function fileSource(path: string): YieldPoolsSource {
  return {
    kind: 'live',
    pools: (onPool) => streamDefiLlamaPools(createReadStream(path, { highWaterMark: 256 * 1024 }), onPool),
    chart: () => Promise.reject(new YieldsSourceError('a file has no /chart', false)),
  };
}

export function registerYieldsCommands(program: Command, context: () => CliContext, io: CliIo): void {
  const out = (line: string) => io.out(line.endsWith('\n') ? line : `${line}\n`);

  /** Ingests one snapshot now, in this process, then queues its alert evaluation for the workers. */
  async function ingest(sources: IngestSources, options: ReturnType<typeof yieldsIngestOptions>): Promise<void> {
    const ctx = context();
    const dataSource = await ctx.db();
    let outcome: IngestOutcome;
    try {
      outcome = await ingestSnapshot({ dataSource, clock: systemClock }, sources, options);
    } catch (error) {
      if (error instanceof YieldsSourceError) throw new CliError(`${error.message} (nothing stored)`);
      throw error;
    }
    out(ingestSummary(outcome));
    await ctx.queues().add('yields.evaluate', { snapshotAt: outcome.snapshotAt }, { jobId: yieldsJobIds.evaluate(new Date(outcome.snapshotAt)) });
    out(`alert evaluation queued (${yieldsJobIds.evaluate(new Date(outcome.snapshotAt))})`);
  }

  const yields = program.command('yields').description('liquidity-pool yields (DefiLlama, Uniswap v3 subgraph)');
  yields
    .command('ingest')
    .description(
      "store this hour's snapshot now (what the hourly yields.ingest job does): DefiLlama /pools at DEFILLAMA_YIELDS_URL and the subgraph at " +
        'UNISWAP_SUBGRAPH_URL, or without them the offline replay twins; then queue the alert evaluation. A second run in the same hour stores nothing',
    )
    .option('--top <n>', 'pools per chain to track (default YIELDS_TOP_POOLS_PER_CHAIN)')
    .action(async (opts: { top?: string }) => {
      const config = loadYieldsConfig(process.env);
      const options = yieldsIngestOptions(config);
      if (opts.top !== undefined) {
        const top = Number(opts.top);
        if (!Number.isInteger(top) || top < 1 || top > 20_000) throw new CliError(`--top: an integer from 1 to 20000, got ${opts.top}`);
        options.topPerChain = top;
      }
      const dataSource = await context().db();
      const health = { dataSource, clock: systemClock };
      if (config.DEFILLAMA_YIELDS_URL) {
        await ingest(
          {
            pools: new DefiLlamaYieldsClient({ baseUrl: config.DEFILLAMA_YIELDS_URL, poolsTimeoutMs: config.DEFILLAMA_YIELDS_TIMEOUT_MS, health }),
            subgraph: config.UNISWAP_SUBGRAPH_URL
              ? new UniswapSubgraphClient({ url: config.UNISWAP_SUBGRAPH_URL, apiKey: config.UNISWAP_SUBGRAPH_API_KEY, timeoutMs: config.UNISWAP_SUBGRAPH_TIMEOUT_MS, health })
              : null,
          },
          options,
        );
        return;
      }
      const replay = await startYieldsReplay(config, { dataSource, clock: systemClock });
      try {
        await ingest(replay, options);
      } finally {
        await replay.close?.();
      }
    });

  importGroup(program)
    .command('yields')
    .description(
      "store a saved DefiLlama /pools answer ({ status, data: [...] }, streamed) as this hour's snapshot: every pool upserted, the tracked ones " +
        '(top YIELDS_TOP_POOLS_PER_CHAIN by TVL per chain, and alerted pools) get a row; no subgraph or /chart. A file that fails the schema stores nothing',
    )
    .argument('<file>', 'path of the JSON file')
    .action(async (given: string) => {
      const path = resolve(process.env.INIT_CWD ?? process.cwd(), given);
      try {
        await stat(path);
      } catch (error) {
        throw new CliError(`${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
      }
      const options = { ...yieldsIngestOptions(loadYieldsConfig(process.env)), chartBackfillPerRun: 0 };
      try {
        await ingest({ pools: fileSource(path), subgraph: null }, options);
      } catch (error) {
        if (error instanceof CliError) throw new CliError(`${path}: ${error.message}`);
        throw error;
      }
    });
}
