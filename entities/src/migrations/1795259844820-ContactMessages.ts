import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ContactMessages1795259844820 implements MigrationInterface {
  name = 'ContactMessages1795259844820';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "contact_messages" (
        "id" SERIAL NOT NULL,
        "name" character varying(100) NOT NULL,
        "email" character varying(255) NOT NULL,
        "message" text NOT NULL,
        "ip_address" character varying(45),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_b74f96eb2edd977ccfba6533293" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_contact_messages_created_at" ON "contact_messages" ("created_at") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_contact_messages_created_at"`);
    await queryRunner.query(`DROP TABLE "contact_messages"`);
  }
}
