import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { systemClock } from '@tickerbell/jobs';
import { Form4ParseError, importInsiderFile, recomputeInsiderAnalytics, storedFiling } from '@tickerbell/jobs/insiders';
import { CliError } from './cli-error';
import type { CliContext, CliIo } from './main';

/** `import` groups the file imports of every domain; other kinds add their own subcommand. */
function importGroup(program: Command): Command {
  return program.commands.find((c) => c.name() === 'import') ?? program.command('import').description('import data files');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function registerInsidersCommands(program: Command, context: () => CliContext, io: CliIo): void {
  const out = (line: string) => io.out(line.endsWith('\n') ? line : `${line}\n`);
  const err = (line: string) => io.err(line.endsWith('\n') ? line : `${line}\n`);

  importGroup(program)
    .command('insiders')
    .description(
      'import SEC Form 4 / 4/A filings (the full submission .txt, the .nc dissemination file, or the bare ownershipDocument XML); ' +
        'importing a filing twice changes nothing',
    )
    .argument('<file...>', 'paths of the filings')
    .option('--analytics', 'then recompute the analytics of every company touched (may queue alerts: needs Redis)')
    .action(async (given: string[], opts: { analytics?: boolean }) => {
      const db = await context().db();
      const companies = new Set<number>();
      let failed = 0;
      for (const name of given) {
        // `npm run cli` runs in the repository root: resolve a relative path where the operator typed it.
        const path = resolve(process.env.INIT_CWD ?? process.cwd(), name);
        if (!existsSync(path)) {
          err(`${path}: no such file`);
          failed++;
          continue;
        }
        try {
          const { accession, result } = await importInsiderFile(db, path, { now: new Date() });
          companies.add(result.companyId);
          const amends = result.amendedFilingId !== null ? `, replaced the lines of ${(await storedFiling(db, accession))?.amends ?? `filing ${result.amendedFilingId}`}` : '';
          out(`${path}: ${result.status} ${accession} (${plural(result.lines, 'line')}${amends})`);
        } catch (error) {
          if (!(error instanceof Form4ParseError)) throw error;
          failed++;
          if (error.kind === 'not-form4') err(`${path}: ${/^not a Form 4/.test(error.message) ? error.message : `not a Form 4: ${error.message}`}`);
          else err(`${path}: not imported, ${error.kind}: ${error.message}`);
        }
      }
      if (opts.analytics && companies.size) {
        const queues = context().queues();
        for (const companyId of companies) {
          const { analysisDate, queued } = await recomputeInsiderAnalytics({ dataSource: db, queues, clock: systemClock }, companyId);
          out(`analytics of company ${companyId} on ${analysisDate}${queued.length ? `; alerts queued: ${queued.join(', ')}` : ''}`);
        }
      }
      if (failed) throw new CliError(`${failed} of ${plural(given.length, 'file')} not imported`);
    });

  const insiders = program.command('insiders').description('insider trades (SEC Form 4)');
  insiders
    .command('filing')
    .description('print, as JSON, a stored filing: issuer, reporting owners, 10b5-1 flag and every transaction line')
    .argument('<accession>', 'accession number, e.g. 0001127602-25-001055')
    .action(async (accession: string) => {
      const filing = await storedFiling(await context().db(), accession.trim());
      if (!filing) throw new CliError(`no filing ${accession}`);
      out(JSON.stringify(filing, null, 2));
    });
}
