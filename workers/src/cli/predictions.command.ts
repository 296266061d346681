import { resolve } from 'node:path';
import type { Command } from 'commander';
import { systemClock } from '@tickerbell/jobs';
import { PredictionsSourceError, importPredictionMarkets } from '@tickerbell/jobs/predictions';
import { CliError } from './cli-error';
import { PredictionsError, performanceForEmail } from '@tickerbell/jobs/predictions';
import type { CliContext, CliIo } from './main';

/** `import` groups the file imports of every domain; other kinds add their own subcommand. */
function importGroup(program: Command): Command {
  return program.commands.find((c) => c.name() === 'import') ?? program.command('import').description('import data files');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function registerPredictionsCommands(program: Command, context: () => CliContext, io: CliIo): void {
  const out = (line: string) => io.out(line.endsWith('\n') ? line : `${line}\n`);

  // Source: import predictions <file>
  importGroup(program)
    .command('predictions')
    .description(
      'apply a Polymarket Gamma answer as a sync page would: a /markets answer (array of markets), one market (/markets/{id}) or an ' +
        '/events answer; new, changed, closed and resolved markets (rows written only when they changed; resolve jobs queued for ' +
        'newly resolved markets). The whole file is checked first: a malformed one writes nothing',
    )
    .argument('<file>', 'path of the JSON file')
    .action(async (given: string) => {
      // `npm run cli` runs in the repository root: resolve a relative path where the operator typed it.
      const path = resolve(process.env.INIT_CWD ?? process.cwd(), given);
      const ctx = context();
      try {
        const r = await importPredictionMarkets({ dataSource: await ctx.db(), queues: ctx.queues(), clock: systemClock }, path);
        const total = r.inserted + r.changed + r.unchanged;
        out(
          `${path}: ${plural(total, 'market')} (${r.inserted} new, ${r.changed} changed, ${r.unchanged} unchanged); ` +
            `${r.closed} closed, ${r.resolved} resolved`,
        );
      } catch (error) {
        if (error instanceof PredictionsSourceError) throw new CliError(`${error.message} (nothing imported)`);
        throw error;
      }
    });

  const predictions = program.command('predictions').description('prediction markets (Polymarket): forecasts and scorecards');
  // Forecasts and performance: predictions performance --user <email>
  predictions
    .command('performance')
    .description(
      "print a user's forecasting scorecard as JSON, as last recomputed (PredictionPerformanceView: accuracy, Brier and log scores " +
        "and the market's, skill, the Brier decomposition, calibration bins with Wilson intervals, categories, monthly trend)",
    )
    .requiredOption('--user <email>', "the user's email")
    .action(async (opts: { user: string }) => {
      const db = await context().db();
      try {
        out(JSON.stringify(await performanceForEmail(db, opts.user), null, 2));
      } catch (error) {
        if (error instanceof PredictionsError && error.code === 'unknown_user') throw new CliError(error.message);
        throw error;
      }
    });
}
