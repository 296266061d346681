#!/usr/bin/env node
// Entry of `npm start`, `npm test`, `npm run test:faults`, `npm run cli` and `npm run bench`. Plain JavaScript so it runs
// on a fresh clone: it installs the dependencies when node_modules is missing, then runs the
// TypeScript script of the command in its own process group, so that Ctrl-C reaches only the
// orchestrator, which then stops api, workers, web and the databases in order.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [command, ...args] = process.argv.slice(2);
const scripts = {
  start: 'scripts/start.ts',
  test: 'scripts/test.ts',
  'test:faults': 'scripts/faults.ts',
  cli: 'scripts/cli.ts',
  bench: 'bench/index.ts',
};

if (!scripts[command]) {
  console.error(`usage: node scripts/bootstrap.mjs <${Object.keys(scripts).join('|')}> [args]`);
  process.exit(2);
}

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Tickerbell needs Node.js 20.19 or newer; this is ${process.version}.`);
  process.exit(1);
}

if (!fs.existsSync(path.join(root, 'node_modules', 'tsx'))) {
  // `npm install` rather than `npm ci`: it still installs exactly what package-lock.json pins, but
  // npm 11 leaves other platforms' optional binaries out of the lockfile and `npm ci` then
  // refuses it as out of sync.
  console.error('[tickerbell] installing dependencies (npm install) ...');
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('[tickerbell] dependency installation failed');
    process.exit(result.status ?? 1);
  }
}

const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, scripts[command]), ...args], {
  cwd: root,
  stdio: 'inherit',
  detached: true,
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null) child.kill(signal);
  });
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
