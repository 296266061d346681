import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** One-time sign-in tokens (email links) of the sign-in library. */
@Entity({ name: 'verification_tokens' })
@Unique('uq_verification_tokens_token', ['token'])
export class VerificationToken {
  // Usually the email address the token was sent to.
  @PrimaryColumn({ type: 'varchar', length: 255 })
  identifier: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  token: string;

  @Column({ type: 'timestamptz' })
  expires: Date;
}
