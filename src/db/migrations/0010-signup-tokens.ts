import { Migration } from '@mikro-orm/migrations';

/**
 * Public signup tokens (issue 10): invite links anyone holding the secret can sign up with, while the token is enabled
 * and not expired. The secret is the key (an admin reads it back to share the link, as in Unleash); the users who
 * signed up with a token are listed through `public_signup_token_users`. A token's role is a root role that cannot be
 * deleted while a token gives it (the role service counts tokens among a role's holders).
 */
export class Migration0010SignupTokens extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table public_signup_tokens (
  secret text primary key,
  name text not null,
  role_id integer not null references roles (id),
  enabled boolean not null default true,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  created_by text
)`);
    this.addSql(`create index public_signup_tokens_role_idx on public_signup_tokens (role_id)`);
    this.addSql(`create table public_signup_token_users (
  secret text not null references public_signup_tokens (secret) on delete cascade,
  user_id integer not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (secret, user_id)
)`);
    this.addSql(`create index public_signup_token_users_user_idx on public_signup_token_users (user_id)`);
  }
}
