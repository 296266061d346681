import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/data-source';

/**
 * A data source on a test database that does not log failed queries: these tests provoke
 * constraint violations and failing migrations on purpose.
 */
export async function openQuietDataSource(url: string, migrations?: Function[]): Promise<DataSource> {
  const ds = new DataSource({
    ...dataSourceOptions({ url, poolSize: 2, applicationName: 'tickerbell-test' }),
    ...(migrations ? { migrations } : {}),
    logging: false,
  });
  return ds.initialize();
}
