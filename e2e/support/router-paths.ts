import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const WEB_ROOT = path.resolve(__dirname, '..', '..', 'web');
const run = promisify(execFile);

/**
 * Loads web/src/app.tsx through Vite's module loader (JSX, CSS imports and the bundler's resolution,
 * as the client is built) in a child process, and prints every path of its exported `routes`.
 */
const LIST_ROUTES = `
import { createServer } from 'vite';
const server = await createServer({
  configFile: false,
  root: process.cwd(),
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false },
  optimizeDeps: { noDiscovery: true, include: [] },
});
try {
  const { routes } = await server.ssrLoadModule('/src/app.tsx');
  const paths = [];
  const walk = (list, parent) => {
    for (const route of list) {
      const own = route.path === undefined ? parent : route.path.startsWith('/') ? route.path : parent.replace(/\\/$/, '') + '/' + route.path;
      if (route.index || route.path !== undefined) paths.push(own);
      walk(route.children ?? [], own);
    }
  };
  walk(routes, '/');
  process.stdout.write(JSON.stringify(paths));
} finally {
  await server.close();
}
`;

/**
 * Every path of the web client's router (`routes` in web/src/app.tsx), as written there
 * (`/dashboard/cot/:code`, `/dashboard/charts/:symbol?`, `/*`), without duplicates. Read from the
 * router itself, so a route a new feature adds is in the list with no test change.
 */
export async function routerPaths(): Promise<string[]> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', LIST_ROUTES], { cwd: WEB_ROOT, maxBuffer: 1024 * 1024 });
  return [...new Set(JSON.parse(stdout) as string[])];
}

/**
 * Concrete URLs for the router's paths: each `:param` takes its sample value (an optional one is
 * visited with and without it) and the catch-all `*` a path nothing else matches. A parameter with
 * no sample is an error, so a new route with a new parameter asks for a sample instead of being
 * skipped.
 */
export function concretePaths(paths: readonly string[], samples: Readonly<Record<string, string>>): string[] {
  const urls = new Set<string>();
  for (const pattern of paths) {
    let variants = [''];
    for (const segment of pattern.split('/').filter(Boolean)) {
      const param = /^:(\w+)(\?)?$/.exec(segment);
      if (segment === '*') {
        variants = variants.map((v) => `${v}/no-such-page`);
      } else if (param) {
        const sample = samples[param[1]];
        if (sample === undefined) throw new Error(`No sample value for the route parameter :${param[1]} of ${pattern}`);
        const withValue = variants.map((v) => `${v}/${encodeURIComponent(sample)}`);
        variants = param[2] ? [...variants, ...withValue] : withValue;
      } else {
        variants = variants.map((v) => `${v}/${segment}`);
      }
    }
    for (const v of variants) urls.add(v === '' ? '/' : v);
  }
  return [...urls];
}
