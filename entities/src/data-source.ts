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
    logging: config.logging ? 'all' : ['error'],
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
