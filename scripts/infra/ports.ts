import net from 'node:net';

/** True when something accepts TCP connections on host:port within the timeout. */
export function isPortOpen(port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** A free TCP port on 127.0.0.1, preferring `preferred` when it is free. */
export async function freePort(preferred?: number): Promise<number> {
  const tryListen = (port: number) =>
    new Promise<number | null>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(null));
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        const chosen = typeof address === 'object' && address ? address.port : null;
        server.close(() => resolve(chosen));
      });
    });
  if (preferred) {
    const port = await tryListen(preferred);
    if (port) return port;
  }
  const port = await tryListen(0);
  if (!port) throw new Error('no free TCP port on 127.0.0.1');
  return port;
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
