import fs from 'node:fs';
import { webBuildDir } from './web-build';

/** Removes the run's web build (e2e project teardown; the root teardown drops the databases). */
export default async function e2eGlobalTeardown(): Promise<void> {
  fs.rmSync(webBuildDir(), { recursive: true, force: true });
}
