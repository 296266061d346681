import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CotFollows1795258299294 implements MigrationInterface {
  name = 'CotFollows1795258299294';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "cot_follows" (
        "user_id" integer NOT NULL,
        "instrument_id" integer NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_0420c580fbfa6b5367d8d8a3d5e" PRIMARY KEY ("user_id", "instrument_id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_cot_follows_instrument_id" ON "cot_follows" ("instrument_id") `);
    await queryRunner.query(`ALTER TABLE "cot_follows" ADD CONSTRAINT "FK_9482c900723c0a2ec3563367cfe" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "cot_follows" ADD CONSTRAINT "FK_2b26aa2be03b9e0b943d5e779f7" FOREIGN KEY ("instrument_id") REFERENCES "cot_instruments"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "cot_follows" DROP CONSTRAINT "FK_2b26aa2be03b9e0b943d5e779f7"`);
    await queryRunner.query(`ALTER TABLE "cot_follows" DROP CONSTRAINT "FK_9482c900723c0a2ec3563367cfe"`);
    await queryRunner.query(`DROP INDEX "public"."ix_cot_follows_instrument_id"`);
    await queryRunner.query(`DROP TABLE "cot_follows"`);
  }
}
