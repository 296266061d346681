import type { Command } from 'commander';
import { parseEnv, systemClock } from '@tickerbell/jobs';
import { billingEnvSchema, createStripeClient, requestSeatSync, resyncSubscriptions, syncCatalog } from '@tickerbell/jobs/billing';
import { CliError } from './cli-error';
import type { CliContext, CliIo } from './main';

/**
 * `billing sync`: mirrors Stripe's products and prices (the plans on sale).
 * `billing resync [--team <id>]`: re-fetches subscriptions from Stripe for every team with a
 * Stripe customer (or one team), catching up webhooks that were missed or failed.
 * Both need billing on (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET); off, they say so and exit 1.
 */
export function registerBillingCommands(program: Command, context: () => CliContext, io: CliIo): void {
  const out = (line: string) => io.out(line.endsWith('\n') ? line : `${line}\n`);
  const stripeOrFail = () => {
    const config = parseEnv(billingEnvSchema, process.env, 'billing');
    const stripe = createStripeClient(config);
    if (!stripe) throw new CliError('billing is off on this install (self-hosted): set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to use the billing commands');
    return stripe;
  };
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

  const billing = program.command('billing').description('Stripe billing: catalog sync and subscription resync');

  billing
    .command('sync')
    .description("mirror Stripe's products and prices (products whose metadata tickerbell_plan names a plan are on sale); those Stripe no longer lists become inactive")
    .action(async () => {
      const stripe = stripeOrFail();
      const result = await syncCatalog({ dataSource: await context().db(), stripe });
      out(`Stripe catalog: ${n(result.products, 'product')}, ${n(result.prices, 'price')} mirrored; ${result.deactivated} deactivated`);
    });

  billing
    .command('resync')
    .description('re-fetch from Stripe the subscriptions of every team with a Stripe customer (or one team) and write them, as the webhooks would have')
    .option('--team <id>', 'only this team')
    .action(async (options: { team?: string }) => {
      let teamId: number | undefined;
      if (options.team !== undefined) {
        teamId = Number(options.team);
        if (!Number.isInteger(teamId) || teamId <= 0) throw new CliError(`--team: "${options.team}" is not a team id`);
      }
      const stripe = stripeOrFail();
      const result = await resyncSubscriptions(
        { dataSource: await context().db(), stripe, clock: systemClock, queues: context().queues(), requestSeatSync },
        teamId === undefined ? {} : { teamId },
      );
      if (teamId !== undefined && result.teams === 0) throw new CliError(`no team ${teamId}`);
      out(`resynced ${n(result.refreshed, 'subscription')} of ${n(result.teams, 'team')}: ${result.changed} changed status, ${n(result.seatSyncs, 'seat sync')} queued`);
      for (const failure of result.failed) io.err(`team ${failure.teamId}: ${failure.error}\n`);
      if (result.failed.length) throw new CliError(`${n(result.failed.length, 'team')} could not be resynced`);
    });
}
