import { existsSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  COT_LOOKBACKS,
  CotParseError,
  DEFAULT_COT_LOOKBACK,
  computeCotAnalytics,
  findCotInstrument,
  importCotRows,
  loadCotSeries,
  openCotFile,
  recomputeCotAnalyticsFor,
  type CotImportCounts,
} from '@tickerbell/jobs/cot';
import { CliError } from './cli-error';
import type { CliContext, CliIo } from './main';

function parseLookback(value: string): number {
  const n = Number(value);
  if (!(COT_LOOKBACKS as readonly number[]).includes(n)) throw new CliError(`--lookback must be one of ${COT_LOOKBACKS.join(', ')}, got "${value}"`);
  return n;
}

const formatCounts = (c: CotImportCounts) => `${c.inserted} inserted, ${c.updated} updated, ${c.unchanged} unchanged`;

/** `import` groups the file imports of every domain; other kinds add their own subcommand. */
function importGroup(program: Command): Command {
  return program.commands.find((c) => c.name() === 'import') ?? program.command('import').description('import data files');
}

export function registerCotCommands(program: Command, context: () => CliContext, io: CliIo): void {
  const out = (line: string) => io.out(line.endsWith('\n') ? line : `${line}\n`);

  importGroup(program)
    .command('cot')
    .description('import a CFTC Traders in Financial Futures file (FinFutYY.txt / .csv as published, the yearly .zip, or API rows .json), then compute analytics; importing the same file twice changes nothing')
    .argument('<file>', 'path of the file')
    .option('--no-analytics', 'store the positions only')
    .option('--lookback <reports>', `lookback of the stored analytics (${COT_LOOKBACKS.join(', ')})`, String(DEFAULT_COT_LOOKBACK))
    .action(async (given: string, opts: { analytics: boolean; lookback: string }) => {
      const lookback = parseLookback(opts.lookback);
      // `npm run cli` runs in the repository root: resolve a relative path where the operator typed it.
      const path = resolve(process.env.INIT_CWD ?? process.cwd(), given);
      if (!existsSync(path)) throw new CliError(`no such file: ${path}`);
      const db = await context().db();
      const started = performance.now();
      let result;
      try {
        const file = openCotFile(path);
        result = await importCotRows(db, file.rows, {
          sourceUrl: file.sourceUrl,
          now: new Date(),
          batchSize: 1000,
          onProgress: (p) => out(`  ${p.rows} rows read (positions: ${formatCounts(p.positions)})`),
        });
      } catch (error) {
        if (error instanceof CotParseError) throw new CliError(`${path}: ${error.message}`);
        throw error;
      }
      // A header and nothing else (or an empty list of API rows): nothing was written, and saying
      // "0 inserted" with success would pass for an import.
      if (result.rows === 0) {
        const what = extname(path).toLowerCase() === '.json' ? 'an empty list of rows' : 'a header line and no rows';
        throw new CliError(`${path}: no report rows to import (the file has ${what}); nothing was written`);
      }
      const range = result.reportDates.length ? `${result.reportDates[0]} .. ${result.reportDates[result.reportDates.length - 1]}` : 'none';
      out(`rows: ${result.rows}; reports ${range}`);
      out(`instruments: ${formatCounts(result.instruments)}`);
      out(`reports: ${result.reports.inserted} inserted, ${result.reports.unchanged} unchanged`);
      out(`positions: ${formatCounts(result.positions)}`);
      if (opts.analytics) {
        const analytics = await recomputeCotAnalyticsFor(db, result.instrumentIds, {
          lookback,
          concurrency: 2,
          onProgress: (done, total) => {
            if (done === total || done % 10 === 0) out(`  analytics: ${done}/${total} instruments`);
          },
        });
        out(`analytics (lookback ${lookback}): ${formatCounts(analytics)}`);
      }
      out(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    });

  const cot = program.command('cot').description('futures positioning (COT)');
  cot
    .command('analytics')
    .description("print, as JSON, each report date's net percents, percentile ranks, COT index, extremes and divergence of one instrument")
    .requiredOption('--code <cftcCode>', 'CFTC contract market code, e.g. 13874A')
    .option('--lookback <reports>', `reports in the window (${COT_LOOKBACKS.join(', ')})`, String(DEFAULT_COT_LOOKBACK))
    .action(async (opts: { code: string; lookback: string }) => {
      const lookback = parseLookback(opts.lookback);
      const db = await context().db();
      const instrument = await findCotInstrument(db, opts.code.trim());
      if (!instrument) throw new CliError(`no COT instrument with code ${opts.code}`);
      const points = computeCotAnalytics(await loadCotSeries(db, instrument.id), { lookback });
      out(JSON.stringify(points, null, 2));
    });
}
