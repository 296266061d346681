import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Chat rooms made by users (issue 18): invite links to private rooms. chat_room_invites keeps the
 * SHA-256 of each code (never the code), its expiry, its use limit and count, and its revocation.
 * Generated from the entities.
 */
export class ChatRoomInvites1795809000000 implements MigrationInterface {
  name = 'ChatRoomInvites1795809000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "chat_room_invites" (
        "id" SERIAL NOT NULL,
        "room_id" integer NOT NULL,
        "code_hash" character(64) NOT NULL,
        "created_by" integer,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "max_uses" integer,
        "uses" integer NOT NULL DEFAULT '0',
        "revoked_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "uq_chat_room_invites_code_hash" UNIQUE ("code_hash"),
        CONSTRAINT "chk_chat_room_invites_max_uses" CHECK ("max_uses" IS NULL OR "max_uses" > 0),
        CONSTRAINT "PK_06e84d43b27c763c8067f7ab16f" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_chat_room_invites_room_id_id" ON "chat_room_invites" ("room_id", "id") `);
    await queryRunner.query(`ALTER TABLE "chat_room_invites" ADD CONSTRAINT "FK_08e03b338be31d257bb5ed0b6a3" FOREIGN KEY ("room_id") REFERENCES "chat_rooms"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "chat_room_invites" ADD CONSTRAINT "FK_37ac254305f2871a95520789bf7" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "chat_room_invites" DROP CONSTRAINT "FK_37ac254305f2871a95520789bf7"`);
    await queryRunner.query(`ALTER TABLE "chat_room_invites" DROP CONSTRAINT "FK_08e03b338be31d257bb5ed0b6a3"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chat_room_invites_room_id_id"`);
    await queryRunner.query(`DROP TABLE "chat_room_invites"`);
  }
}
