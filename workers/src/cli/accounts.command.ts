import type { Command } from 'commander';
import type { UserRole } from '@tickerbell/entities';
import { setUserRole } from '@tickerbell/jobs/accounts';
import { CliError } from './cli-error';
import type { CliContext, CliIo } from './main';

async function setRole(context: CliContext, email: string, role: UserRole): Promise<{ id: number; email: string }> {
  const user = await setUserRole(await context.db(), email, role);
  if (!user) throw new CliError(`No user with the email ${email}`);
  return user;
}

/** `users promote|demote <email>`: the site-wide admin role (bull-board, admin API). */
export function registerAccountsCommands(program: Command, context: () => CliContext, io: CliIo): void {
  const users = program.command('users').description('user accounts');
  users
    .command('promote')
    .description('give a user the admin role')
    .argument('<email>', 'the email the user signs in with')
    .action(async (email: string) => {
      const user = await setRole(context(), email, 'admin');
      io.out(`${user.email} (id ${user.id}) is now an admin\n`);
    });
  users
    .command('demote')
    .description('take the admin role away (back to member)')
    .argument('<email>', 'the email the user signs in with')
    .action(async (email: string) => {
      const user = await setRole(context(), email, 'member');
      io.out(`${user.email} (id ${user.id}) is now a member\n`);
    });
}
