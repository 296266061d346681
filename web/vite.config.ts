import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

const HOST = '127.0.0.1';
const DEFAULT_WEB_PORT = 5173;
const DEFAULT_API_URL = 'http://127.0.0.1:3000';

function webPort(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_WEB_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`WEB_PORT must be a whole number from 1 to 65535, got "${raw}"`);
  }
  return port;
}

function apiUrl(raw: string | undefined): string {
  const value = raw === undefined || raw.trim() === '' ? DEFAULT_API_URL : raw.trim();
  if (!URL.canParse(value)) throw new Error(`API_URL must be an absolute URL, got "${value}"`);
  return value;
}

function apiProxy(target: string): ProxyOptions {
  return {
    target,
    changeOrigin: true,
    // The api sees the browser's host and scheme (for redirects and cookies) in X-Forwarded-*.
    xfwd: true,
    // No proxyTimeout: an SSE stream (/api/stream) stays open for as long as the tab does.
    configure(proxy) {
      proxy.on('start', (req) => {
        // Compressed event streams get buffered until the compressor flushes, so events arrive
        // late and in bursts. Ask the api for identity encoding on SSE requests; the proxy itself
        // pipes bytes through unbuffered and closes the upstream when the tab disconnects.
        if (req.headers.accept?.includes('text/event-stream')) delete req.headers['accept-encoding'];
      });
    },
  };
}

export default defineConfig(() => {
  const target = apiUrl(process.env.API_URL);
  // Anchored so /api and /admin match but /apiary or /administrators (client routes) do not.
  const proxy: Record<string, ProxyOptions> = {
    '^/api(?:[/?]|$)': apiProxy(target),
    '^/admin(?:[/?]|$)': apiProxy(target),
  };

  return {
    // Pinned so `vite --config web/vite.config.ts` from the repository root behaves the same.
    root: fileURLToPath(new URL('.', import.meta.url)),
    plugins: [react()],
    server: {
      host: HOST,
      port: webPort(process.env.WEB_PORT),
      strictPort: true,
      proxy,
    },
    preview: {
      host: HOST,
      strictPort: true,
      proxy,
    },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              // React and the router change far less often than our code: their own chunk keeps
              // them cached across deploys. Only the entry's own dependencies belong here, so
              // libraries used by lazy pages (dashboard charts, say) stay in those pages' chunks.
              {
                name: 'react-vendor',
                test: /[\\/]node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]/,
              },
            ],
          },
        },
      },
    },
  };
});
