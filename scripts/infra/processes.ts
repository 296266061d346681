import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import { REPO_ROOT } from './paths';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  /** SIGTERM, then SIGKILL after the timeout; resolves when the process has exited. */
  stop(timeoutMs?: number): Promise<void>;
}

/** Prefixes each output line with the process name, so three processes stay readable in one terminal. */
function relay(stream: NodeJS.ReadableStream | null, name: string, target: NodeJS.WriteStream): void {
  if (!stream) return;
  readline.createInterface({ input: stream }).on('line', (line) => target.write(`[${name}] ${line}\n`));
}

/** Starts a Node process running a TypeScript file (through tsx) or a JS file, in its own process group. */
export function startNodeProcess(name: string, args: string[], env: NodeJS.ProcessEnv, cwd = REPO_ROOT): ManagedProcess {
  const child = spawn(process.execPath, args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Own process group: a terminal Ctrl-C reaches the orchestrator only, which stops us in order.
    detached: true,
  });
  relay(child.stdout, name, process.stdout);
  relay(child.stderr, name, process.stderr);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    child,
    async stop(timeoutMs = 15000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

export function tsxArgs(file: string): string[] {
  return ['--import', 'tsx', file];
}

/** Polls a URL until it answers 2xx, the process exits, or the timeout passes. */
export async function waitForHttp(url: string, proc: ManagedProcess, timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited (code ${proc.child.exitCode}) before it was ready`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${proc.name} did not answer ${url} within ${timeoutMs / 1000} s`);
}
