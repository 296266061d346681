import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const run = promisify(execFile);

/** Where this jest run keeps its production build of web/ (one per run, removed by the teardown). */
export function webBuildDir(runId = process.env.TB_TEST_RUN_ID ?? 'local'): string {
  return path.join(os.tmpdir(), `tickerbell-e2e-web-${runId}`);
}

/**
 * A production build of the web client (`vite build`, so the service worker registers), built once
 * per jest run: later e2e files of the run reuse it. Built into a scratch folder and renamed into
 * place, so a concurrent file never sees half a build.
 */
export async function buildWebClient(): Promise<string> {
  const target = webBuildDir();
  if (fs.existsSync(path.join(target, 'index.html'))) return target;
  const scratch = `${target}.${process.pid}.${Date.now()}`;
  const vite = path.join(REPO_ROOT, 'node_modules', '.bin', 'vite');
  await run(vite, ['build', '--config', path.join(REPO_ROOT, 'web', 'vite.config.ts'), '--outDir', scratch, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    maxBuffer: 16 * 1024 * 1024,
  });
  try {
    fs.renameSync(scratch, target);
  } catch (error) {
    // Another file of the run finished first: use its build.
    fs.rmSync(scratch, { recursive: true, force: true });
    if (!fs.existsSync(path.join(target, 'index.html'))) throw error;
  }
  return target;
}
