import 'reflect-metadata';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { SnakeNamingStrategy } from 'typeorm-naming-strategies';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export interface DataSourceConfig {
  url: string;
  /** Pool size per process; api and workers size it from their own config. */
  poolSize?: number;
  /** Log every SQL statement (debugging only). */
  logging?: boolean;
  applicationName?: string;
}

export function dataSourceOptions(config: DataSourceConfig): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    namingStrategy: new SnakeNamingStrategy(),
    // Schema changes only ever go through committed migrations.
    synchronize: false,
    migrationsRun: false,
    // One transaction for the whole run: a failing migration leaves the schema as it was.
    migrationsTransactionMode: 'all',
    // Off unless debugging: a failed query is either expected and answered by its caller (a unique
    // violation becomes a 409) or an error its caller logs with context (the api's error handler, a
    // failed job); TypeORM's own console line would only repeat it, without the context.
    logging: config.logging ? 'all' : false,
    extra: {
      max: config.poolSize ?? 10,
      application_name: config.applicationName ?? 'tickerbell',
    },
  };
}

export function createDataSource(config: DataSourceConfig): DataSource {
  return new DataSource(dataSourceOptions(config));
}

/** Runs every pending migration; returns the names of those applied. */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const applied = await dataSource.runMigrations({ transaction: 'all' });
  return applied.map((m) => m.name);
}
