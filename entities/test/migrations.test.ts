import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { runMigrations } from '../src/data-source';
import { MIGRATIONS } from '../src/migrations';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database';
import { openQuietDataSource } from './support';

// Ad-hoc migrations that run after the committed ones: the first succeeds, the second fails.
class CreateProbeTable9999999999998 implements MigrationInterface {
  name = 'CreateProbeTable9999999999998';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "migration_probe" ("id" integer PRIMARY KEY)`);
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "migration_probe"`);
  }
}

class BrokenMigration9999999999999 implements MigrationInterface {
  name = 'BrokenMigration9999999999999';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "no_such_table" ADD COLUMN "x" integer`);
  }
  async down(): Promise<void> {}
}

async function tableExists(ds: DataSource, table: string): Promise<boolean> {
  const [{ exists }] = await ds.query(`SELECT to_regclass($1) IS NOT NULL AS exists`, [`public.${table}`]);
  return exists;
}

describe('migrations', () => {
  describe('all committed migrations', () => {
    let db: TestDatabase;

    beforeAll(async () => {
      db = await createTestDatabase();
    });

    afterAll(async () => {
      await db?.drop();
    });

    it('leave no difference between the entities and the migrated schema', async () => {
      // What `scripts/generate-migration.ts` would write: nothing.
      const log = await db.dataSource.driver.createSchemaBuilder().log();
      expect(log.upQueries.map((q) => q.query)).toEqual([]);
    });
  });

  describe('a run in which one migration fails', () => {
    let db: TestDatabase;
    let ds: DataSource;

    beforeAll(async () => {
      db = await createTestDatabase({ migrated: false });
      // A second data source whose migration list is the committed one plus the two ad-hoc ones.
      ds = await openQuietDataSource(db.url, [...MIGRATIONS, CreateProbeTable9999999999998, BrokenMigration9999999999999]);
    });

    afterAll(async () => {
      if (ds?.isInitialized) await ds.destroy();
      await db?.drop();
    });

    it('rejects and leaves the database as it was before the run', async () => {
      // TypeORM reports the failing migration on the console whatever the logger says.
      const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
      try {
        await expect(runMigrations(ds)).rejects.toMatchObject({ code: '42P01' });
        expect(log).toHaveBeenCalledWith(expect.stringContaining('BrokenMigration9999999999999'));
      } finally {
        log.mockRestore();
      }

      expect(await tableExists(ds, 'migration_probe')).toBe(false);
      expect(await tableExists(ds, 'users')).toBe(false);
      expect(Number((await ds.query(`SELECT count(*) AS n FROM migrations`))[0].n)).toBe(0);
    });
  });
});
