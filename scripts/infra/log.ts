// Console output of the developer scripts (start, test, cli, bench): short, prefixed lines.
export function info(message: string): void {
  process.stderr.write(`[tickerbell] ${message}\n`);
}

export function warn(message: string): void {
  process.stderr.write(`[tickerbell] WARNING: ${message}\n`);
}

export class InfraError extends Error {}
