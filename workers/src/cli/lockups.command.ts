import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { importLockupsCsv, LockupCsvError, loadLockupsConfig, lockupsToday } from '@tickerbell/jobs/lockups';
import { CliError } from './cli-error';
import type { CliContext, CliIo } from './main';

/** `import` groups the file imports of every domain; other kinds add their own subcommand. */
function importGroup(program: Command): Command {
  return program.commands.find((c) => c.name() === 'import') ?? program.command('import').description('import data files');
}

export function registerLockupsCommands(program: Command, context: () => CliContext, io: CliIo): void {
  const out = (line: string) => io.out(line.endsWith('\n') ? line : `${line}\n`);

  importGroup(program)
    .command('lockups')
    .description(
      'import IPO lock-up events from a CSV (columns in docs/lockups.md: ticker, company_name, ipo_date, lockup_expiration_date, ...); ' +
        'every row is checked first and nothing is written when one is wrong; importing the same file twice changes nothing',
    )
    .argument('<file>', 'path of the CSV file')
    .action(async (given: string) => {
      // `npm run cli` runs in the repository root: resolve a relative path where the operator typed it.
      const path = resolve(process.env.INIT_CWD ?? process.cwd(), given);
      if (!existsSync(path)) throw new CliError(`no such file: ${path}`);
      const config = loadLockupsConfig(process.env);
      const db = await context().db();
      try {
        const result = await importLockupsCsv(db, readFileSync(path), { today: lockupsToday(new Date()), weights: config.LOCKUP_RISK_WEIGHTS });
        const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
        out(`${path}: ${n(result.rows, 'row')}, ${n(result.offerings, 'offering')}: ${n(result.inserted, 'event')} inserted, ${result.updated} updated`);
      } catch (error) {
        if (error instanceof LockupCsvError) throw new CliError(`${path}: ${error.message}`);
        throw error;
      }
    });
}
