import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Benchmark, BenchRow } from './bench';

const ROOT = path.resolve(__dirname, '..');

function gzipKb(file: string): number {
  return gzipSync(fs.readFileSync(file), { level: 9 }).length / 1024;
}

/** Assets index.html loads before any route code: its scripts, module preloads and styles. */
function initialAssets(outDir: string): string[] {
  const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  return [...new Set(refs)].map((ref) => path.join(outDir, ref));
}

/**
 * The web client's production build: gzip size of what a public page loads first (the budget
 * the issue sets: public pages stay small, the dashboard is code-split), and the largest lazy chunks.
 */
export const webBundleBench: Benchmark = {
  name: 'web-bundle',
  description: 'Production build of the web client: gzip sizes of the initial load and of the lazy chunks',
  async run() {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tb-web-bundle-'));
    try {
      const started = performance.now();
      const build = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir'], {
        cwd: path.join(ROOT, 'web'),
        encoding: 'utf8',
      });
      if (build.status !== 0) throw new Error(`vite build failed: ${build.stderr.slice(-2000)}`);
      const buildSeconds = (performance.now() - started) / 1000;
      const initial = initialAssets(outDir);
      const rows: BenchRow[] = initial.map((file) => ({ scenario: `initial: ${path.basename(file)}`, 'gzip kB': gzipKb(file) }));
      const initialJs = initial.filter((f) => f.endsWith('.js')).reduce((sum, f) => sum + gzipKb(f), 0);
      rows.push({ scenario: 'initial JavaScript, total', 'gzip kB': initialJs });
      const lazy = fs
        .readdirSync(path.join(outDir, 'assets'))
        .map((name) => path.join(outDir, 'assets', name))
        .filter((file) => file.endsWith('.js') && !initial.includes(file))
        .map((file) => ({ file, kb: gzipKb(file) }))
        .sort((a, b) => b.kb - a.kb);
      for (const { file, kb } of lazy.slice(0, 5)) rows.push({ scenario: `lazy: ${path.basename(file)}`, 'gzip kB': kb });
      rows.push({ scenario: `lazy chunks (${lazy.length}), total`, 'gzip kB': lazy.reduce((sum, c) => sum + c.kb, 0) });
      rows.push({ scenario: 'vite build time (s)', 'gzip kB': '', seconds: buildSeconds });
      return rows;
    } finally {
      fs.rmSync(outDir, { recursive: true, force: true });
    }
  },
};
