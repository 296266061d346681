import net from 'node:net';
import { createDataSource } from '@tickerbell/entities';
import type { DataSource } from 'typeorm';

/**
 * A real connection to the test database through a local TCP proxy that the test can cut: the
 * server is gone mid-life, as in an outage (connections reset, new ones refused).
 */
export async function cuttableDatabase(databaseUrl: string, applicationName: string): Promise<{ dataSource: DataSource; cut(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(5432, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
  const dataSource = createDataSource({ url: url.toString(), poolSize: 2, applicationName });
  await dataSource.initialize();
  return {
    dataSource,
    cut: () => new Promise<void>((resolve) => proxy.close(() => resolve()) && sockets.forEach((s) => s.destroy())),
    async close() {
      if (proxy.listening) proxy.close();
      await dataSource.destroy().catch(() => undefined);
    },
  };
}
