/**
 * Generates a migration from the difference between the entities and the schema that the
 * committed migrations build.
 *
 *   npx tsx scripts/generate-migration.ts <Name>
 *
 * Creates a temporary empty database on $MIGRATION_ADMIN_URL (default postgres://postgres@127.0.0.1:5432),
 * runs every migration in MIGRATIONS, asks TypeORM's schema builder for the pending changes (what
 * `typeorm migration:generate` does) and writes entities/src/migrations/<timestamp>-<Name>.ts.
 * Prints "no changes" and exits 0 when the entities and the migrations agree. The temporary
 * database is always dropped. Register a new migration in entities/src/migrations/index.ts.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Client } from 'pg';
import { createDataSource, runMigrations } from '../entities/src/data-source';

interface Query {
  query: string;
  parameters?: unknown[];
}

const MIGRATIONS_DIR = join(__dirname, '..', 'entities', 'src', 'migrations');

function adminUrl(): string {
  const url = new URL(process.env.MIGRATION_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  if (url.pathname === '' || url.pathname === '/') url.pathname = '/postgres';
  return url.toString();
}

function databaseUrl(admin: string, database: string): string {
  const url = new URL(admin);
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The schema changes the entities need on top of the committed migrations. */
export async function pendingSchemaChanges(): Promise<{ up: Query[]; down: Query[] }> {
  const url = adminUrl();
  const name = `tb_migration_gen_${randomBytes(4).toString('hex')}`;
  await admin(url, `CREATE DATABASE "${name}"`);
  try {
    const dataSource = createDataSource({ url: databaseUrl(url, name), poolSize: 2, applicationName: 'generate-migration' });
    await dataSource.initialize();
    try {
      await runMigrations(dataSource);
      const log = await dataSource.driver.createSchemaBuilder().log();
      return { up: log.upQueries, down: log.downQueries };
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await admin(url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

// SQL goes into a template literal: escape what a template literal would interpret.
function templateLiteral(sql: string): string {
  return '`' + sql.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`';
}

/** Splits at commas outside parentheses and quotes. */
function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(list.slice(start).trim());
  return parts;
}

// One column or constraint per line, so a CREATE TABLE reads like the entity and diffs well.
function formatSql(sql: string): string {
  const m = /^(CREATE TABLE "[^"]+" )\((.*)\)$/s.exec(sql);
  if (!m) return sql;
  const indent = ' '.repeat(8);
  return `${m[1]}(\n${splitTopLevel(m[2]).map((part) => indent + part).join(',\n')}\n${' '.repeat(6)})`;
}

function statement(q: Query): string {
  const params = q.parameters && q.parameters.length > 0 ? `, ${JSON.stringify(q.parameters)}` : '';
  return `    await queryRunner.query(${templateLiteral(formatSql(q.query))}${params});`;
}

export function renderMigration(className: string, up: Query[], down: Query[]): string {
  return `import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  public async up(queryRunner: QueryRunner): Promise<void> {
${up.map(statement).join('\n')}
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
${[...down].reverse().map(statement).join('\n')}
  }
}
`;
}

async function main(): Promise<number> {
  const name = process.argv[2];
  if (!name || !/^[A-Z][A-Za-z0-9]*$/.test(name)) {
    console.error('usage: npx tsx scripts/generate-migration.ts <Name>   (Name in PascalCase, e.g. AddYieldChain)');
    return 2;
  }
  const { up, down } = await pendingSchemaChanges();
  if (up.length === 0) {
    console.log('no changes: the entities match the schema built by the committed migrations');
    return 0;
  }
  const timestamp = Date.now();
  const file = join(MIGRATIONS_DIR, `${timestamp}-${name}.ts`);
  writeFileSync(file, renderMigration(`${name}${timestamp}`, up, down));
  console.log(`wrote ${relative(process.cwd(), file)} (${up.length} statements)`);
  console.log(`register it: add ${name}${timestamp} at the end of MIGRATIONS in entities/src/migrations/index.ts`);
  return 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
