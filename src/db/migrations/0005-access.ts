import { Migration } from '@mikro-orm/migrations';

/**
 * Access control (issue 9): users and their sessions and personal access tokens, project roles of users and
 * groups, groups and their members, and what API tokens need beyond admin tokens (expiry, creator).
 *
 * - A user's root role is a column (`users.root_role_id`): every user has exactly one. Project roles live in
 *   `role_user` and `group_role`, one row per (role, holder, project).
 * - Names that identify a user (username, email) are unique case-insensitively, as Unleash compares them.
 * - Session ids and token secrets are stored only as SHA-256 digests (they carry 32 random bytes).
 * - Deleting a user removes their sessions, tokens, project roles and group memberships; deleting a project removes
 *   the project roles held in it; a role still held by anyone cannot be deleted (restrict), which the service turns
 *   into a clear error before the database has to.
 */
export class Migration0005Access extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table users (
  id serial primary key,
  name text,
  username text,
  email text,
  image_url text,
  password_hash text,
  login_attempts integer not null default 0,
  email_sent boolean not null default false,
  account_type text not null default 'User' check (account_type in ('User', 'Service Account')),
  root_role_id integer not null references roles (id),
  seen_at timestamptz,
  created_at timestamptz not null default now(),
  check (username is not null or email is not null)
)`);
    this.addSql(`create unique index users_username_unique_idx on users (lower(username)) where username is not null`);
    this.addSql(`create unique index users_email_unique_idx on users (lower(email)) where email is not null`);
    this.addSql(`create index users_root_role_idx on users (root_role_id)`);

    this.addSql(`create table user_sessions (
  sid_hash text primary key,
  user_id integer not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
)`);
    this.addSql(`create index user_sessions_user_idx on user_sessions (user_id)`);
    this.addSql(`create index user_sessions_expires_idx on user_sessions (expires_at)`);

    this.addSql(`create table personal_access_tokens (
  id serial primary key,
  user_id integer not null references users (id) on delete cascade,
  secret_hash text not null unique,
  description text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  seen_at timestamptz
)`);
    this.addSql(`create index personal_access_tokens_user_idx on personal_access_tokens (user_id)`);

    this.addSql(`create table role_user (
  role_id integer not null references roles (id),
  user_id integer not null references users (id) on delete cascade,
  project text not null references projects (id) on delete cascade on update cascade,
  created_at timestamptz not null default now(),
  primary key (role_id, user_id, project)
)`);
    this.addSql(`create index role_user_user_idx on role_user (user_id)`);
    this.addSql(`create index role_user_project_idx on role_user (project)`);

    this.addSql(`create table groups (
  id serial primary key,
  name text not null,
  description text,
  mappings_sso text[] not null default '{}',
  root_role_id integer references roles (id),
  created_by text,
  created_at timestamptz not null default now()
)`);
    this.addSql(`create unique index groups_name_unique_idx on groups (lower(name))`);

    this.addSql(`create table group_user (
  group_id integer not null references groups (id) on delete cascade,
  user_id integer not null references users (id) on delete cascade,
  created_by text,
  joined_at timestamptz not null default now(),
  primary key (group_id, user_id)
)`);
    this.addSql(`create index group_user_user_idx on group_user (user_id)`);

    this.addSql(`create table group_role (
  group_id integer not null references groups (id) on delete cascade,
  role_id integer not null references roles (id),
  project text not null references projects (id) on delete cascade on update cascade,
  created_by text,
  created_at timestamptz not null default now(),
  primary key (group_id, role_id, project)
)`);
    this.addSql(`create index group_role_project_idx on group_role (project)`);
    this.addSql(`create index group_role_role_idx on group_role (role_id)`);
    this.addSql(`create index role_user_role_idx on role_user (role_id)`);

    this.addSql(`alter table api_tokens add column expires_at timestamptz, add column created_by text, add column created_by_user_id integer`);
  }
}
