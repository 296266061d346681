import { Command } from 'commander';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '@tickerbell/entities';
import { ConfigError, JobQueues, commonEnvSchema, createProducerConnection, parseEnv, type CommonEnv } from '@tickerbell/jobs';
import { runSeeds } from '@tickerbell/jobs/seeds';
import { CliError } from './cli-error';
import { registerCotCommands } from './cot.command';
import { registerInsidersCommands } from './insiders.command';
import { registerWhalesCommands } from './whales.command';
import { registerPredictionsCommands } from './predictions.command';
import { registerYieldsCommands } from './yields.command';
import { registerLockupsCommands } from './lockups.command';
import { registerBillingCommands } from './billing.command';
import { registerAccountsCommands } from './accounts.command';
import { registerMarketHoursCommands } from './market-hours.command';
import { formatQueueCounts, queueCounts } from './queues.command';
import { runJob } from './run.command';

/** Connections opened on demand: `migrate` needs no Redis, `queues` no database. */
export class CliContext {
  private dataSource?: DataSource;
  private redis?: Redis;
  private jobQueues?: JobQueues;

  constructor(readonly env: CommonEnv) {}

  async db(): Promise<DataSource> {
    if (!this.dataSource) {
      this.dataSource = createDataSource({ url: this.env.DATABASE_URL, poolSize: 2, applicationName: 'tickerbell-cli' });
      await this.dataSource.initialize();
    }
    return this.dataSource;
  }

  queues(): JobQueues {
    if (!this.jobQueues) {
      this.redis = createProducerConnection(this.env.REDIS_URL);
      this.jobQueues = new JobQueues(this.redis, this.env.QUEUE_PREFIX);
    }
    return this.jobQueues;
  }

  async close(): Promise<void> {
    await this.jobQueues?.close();
    // A command that failed before using Redis closes it while it still connects: its ready check then
    // fails ("Stream isn't writeable"), an error nobody waits for (ioredis would print it as unhandled).
    this.redis?.on('error', () => undefined);
    this.redis?.disconnect();
    if (this.dataSource?.isInitialized) await this.dataSource.destroy();
  }
}

export function buildProgram(context: () => CliContext, io: CliIo): Command {
  const out = (line: string) => io.out(line.endsWith('\n') ? line : `${line}\n`);
  const program = new Command('tickerbell')
    .description('Tickerbell operator commands')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });

  program
    .command('migrate')
    .description('run pending database migrations (or revert the last one)')
    .option('--revert', 'undo the most recent migration')
    .action(async (opts: { revert?: boolean }) => {
      const db = await context().db();
      if (opts.revert) {
        await db.undoLastMigration({ transaction: 'all' });
        out('reverted the last migration');
        return;
      }
      const applied = await runMigrations(db);
      out(applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'database is up to date');
    });

  program
    .command('seed')
    .description('load demo data (each seed runs once)')
    .action(async () => {
      const applied = await runSeeds(await context().db());
      out(applied.length ? `applied seeds: ${applied.join(', ')}` : 'all seeds already applied');
    });

  program
    .command('queues')
    .description('job counts per queue and state')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const counts = await queueCounts(context().queues());
      out(opts.json ? JSON.stringify(counts, null, 2) : formatQueueCounts(counts));
    });

  program
    .command('run')
    .description('enqueue a registered job now')
    .argument('<job>', 'job name, e.g. housekeeping.purge-expired')
    .option('--data <json>', 'the job payload as JSON')
    .action(async (name: string, opts: { data?: string }) => {
      const job = await runJob(context().queues(), name, opts.data);
      out(JSON.stringify({ enqueued: name, id: job.id, queue: job.queue }));
    });

  registerMarketHoursCommands(program, context, io);
  registerAccountsCommands(program, context, io);
  registerCotCommands(program, context, io);
  registerInsidersCommands(program, context, io);
  registerWhalesCommands(program, context, io);
  registerPredictionsCommands(program, context, io);
  registerYieldsCommands(program, context, io);
  registerLockupsCommands(program, context, io);
  registerBillingCommands(program, context, io);
  return program;
}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** Runs the CLI; returns the exit code. */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  io: CliIo = processIo,
): Promise<number> {
  let ctx: CliContext | undefined;
  const context = () => {
    ctx ??= new CliContext(parseEnv(commonEnvSchema, env, 'cli'));
    return ctx;
  };
  const program = buildProgram(context, io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CliError || error instanceof ConfigError) {
      io.err(`error: ${error.message}\n`);
      return 1;
    }
    // commander has printed its own message (unknown command, missing argument, --help).
    if (error instanceof Error && 'exitCode' in error && typeof error.exitCode === 'number') return error.exitCode;
    io.err(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await ctx?.close();
  }
}

if (require.main === module) {
  void runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
