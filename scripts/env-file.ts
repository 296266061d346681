import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './infra/paths';

/** Loads .env from the repository root when present (variables already set win). */
export function loadDotEnv(): void {
  const file = path.join(REPO_ROOT, '.env');
  if (fs.existsSync(file)) process.loadEnvFile(file);
}
