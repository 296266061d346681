import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** Local state of the developer setup: embedded PostgreSQL, spawned Redis, mail outbox. Never committed. */
export const DATA_DIR = process.env.TB_DATA_DIR ?? path.join(REPO_ROOT, '.data');
