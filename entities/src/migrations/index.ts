import { Initial1795251779224 } from './1795251779224-Initial';

// Migrations in the order they run. Add new ones at the end; never edit one that has shipped.
export const MIGRATIONS: Function[] = [Initial1795251779224];
