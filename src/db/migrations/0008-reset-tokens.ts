import { Migration } from '@mikro-orm/migrations';

/**
 * Password reset and invite links (issue 10): one row per token handed out.
 *
 * - The token (32 random bytes) is stored only as its SHA-256 digest, like session ids and API token secrets: a copy
 *   of the table does not let anyone reset a password.
 * - A token is valid while `expires_at > now()` and `used_at is null`. Using it sets both `used_at` and `expires_at`
 *   to the moment of use, so a used token reads as expired; issuing a new token for a user expires their older ones.
 * - `created_by` is the name of whoever asked for the link (username, email or API token name), kept as text so it
 *   outlives that user or token. Deleting the user deletes their tokens.
 */
export class Migration0008ResetTokens extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table reset_tokens (
  token_hash text primary key,
  user_id integer not null references users (id) on delete cascade,
  created_by text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
)`);
    this.addSql(`create index reset_tokens_user_idx on reset_tokens (user_id)`);
    this.addSql(`create index reset_tokens_expires_idx on reset_tokens (expires_at)`);
  }
}
