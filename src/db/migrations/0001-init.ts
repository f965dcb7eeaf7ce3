import { Migration } from '@mikro-orm/migrations';
import { seedStatements } from '../seed';

/** The platform schema: tokens, audit events, environments, projects, context fields, tags, and the feature model tables. */
export class Migration0001Init extends Migration {
  override async up(): Promise<void> {
    const sql = `
create table api_tokens (
  id serial primary key,
  secret_hash text not null unique,
  token_name text not null,
  type text not null check (type in ('admin', 'client', 'frontend')),
  projects text[] not null default '{*}',
  environment text not null default '*',
  created_at timestamptz not null default now(),
  seen_at timestamptz
);

create table events (
  id bigserial primary key,
  type text not null,
  created_at timestamptz not null default now(),
  created_by text not null,
  created_by_user_id integer,
  project text,
  environment text,
  feature_name text,
  data jsonb,
  pre_data jsonb,
  tags jsonb not null default '[]'
);
create index events_feature_name_id_idx on events (feature_name, id desc) where feature_name is not null;
create index events_project_id_idx on events (project, id desc) where project is not null;
create index events_project_created_at_idx on events (project, created_at) where project is not null;
create index events_type_id_idx on events (type, id desc);

create table environments (
  name text primary key,
  type text not null,
  sort_order integer not null default 0,
  enabled boolean not null default true,
  protected boolean not null default false,
  created_at timestamptz not null default now()
);

create table projects (
  id text primary key,
  name text not null,
  description text,
  mode text not null default 'open' check (mode in ('open', 'protected', 'private')),
  default_stickiness text not null default 'default',
  feature_limit integer,
  feature_naming_pattern text,
  feature_naming_example text,
  feature_naming_description text,
  health integer not null default 100,
  created_at timestamptz not null default now(),
  updated_at timestamptz
);

create table project_environments (
  project_id text not null references projects (id) on delete cascade,
  environment_name text not null references environments (name) on delete cascade on update cascade,
  default_strategy jsonb,
  primary key (project_id, environment_name)
);
create index project_environments_environment_idx on project_environments (environment_name);

create table context_fields (
  name text primary key,
  description text,
  stickiness boolean not null default false,
  sort_order integer not null default 10,
  legal_values jsonb not null default '[]',
  created_at timestamptz not null default now()
);

create table tag_types (
  name text primary key,
  description text,
  icon text,
  created_at timestamptz not null default now()
);

create table tags (
  type text not null references tag_types (name) on delete cascade on update cascade,
  value text not null,
  created_at timestamptz not null default now(),
  primary key (type, value)
);

create table feature_types (
  id text primary key,
  name text not null,
  description text,
  lifetime_days integer
);

create table strategies (
  name text primary key,
  display_name text,
  title text,
  description text,
  parameters jsonb not null default '[]',
  built_in boolean not null default false,
  deprecated boolean not null default false,
  sort_order integer not null default 9999,
  created_at timestamptz not null default now()
);

create table permissions (
  id integer primary key,
  name text not null unique,
  display_name text not null,
  type text not null
);

create table roles (
  id serial primary key,
  name text not null unique,
  type text not null,
  description text,
  created_at timestamptz not null default now()
);

create table role_permissions (
  role_id integer not null references roles (id) on delete cascade,
  permission text not null references permissions (name),
  environment text
);
create unique index role_permissions_unique_idx on role_permissions (role_id, permission, coalesce(environment, ''));

create table features (
  name text primary key,
  project text not null references projects (id) on update cascade,
  type text not null default 'release' references feature_types (id),
  description text,
  stale boolean not null default false,
  impression_data boolean not null default false,
  created_at timestamptz not null default now(),
  archived_at timestamptz,
  last_seen_at timestamptz,
  created_by_user_id integer
);
create index features_project_idx on features (project);

create table feature_environments (
  feature_name text not null references features (name) on delete cascade on update cascade,
  environment text not null references environments (name) on delete cascade on update cascade,
  enabled boolean not null default false,
  variants jsonb not null default '[]',
  last_seen_at timestamptz,
  primary key (feature_name, environment)
);
create index feature_environments_environment_idx on feature_environments (environment);

create table feature_strategies (
  id uuid primary key,
  feature_name text not null references features (name) on delete cascade on update cascade,
  project text not null,
  environment text not null references environments (name) on delete cascade on update cascade,
  strategy_name text not null,
  title text,
  parameters jsonb not null default '{}',
  constraints jsonb not null default '[]',
  variants jsonb not null default '[]',
  sort_order integer not null default 0,
  disabled boolean not null default false,
  created_at timestamptz not null default now()
);
create index feature_strategies_feature_env_idx on feature_strategies (feature_name, environment);

create table segments (
  id serial primary key,
  name text not null,
  description text,
  project text references projects (id) on delete cascade,
  constraints jsonb not null default '[]',
  created_by text,
  created_at timestamptz not null default now()
);

create table feature_strategy_segments (
  feature_strategy_id uuid not null references feature_strategies (id) on delete cascade,
  segment_id integer not null references segments (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (feature_strategy_id, segment_id)
);
create index feature_strategy_segments_segment_idx on feature_strategy_segments (segment_id);

create table feature_tags (
  feature_name text not null references features (name) on delete cascade on update cascade,
  tag_type text not null,
  tag_value text not null,
  created_at timestamptz not null default now(),
  created_by_user_id integer,
  primary key (feature_name, tag_type, tag_value),
  foreign key (tag_type, tag_value) references tags (type, value) on delete cascade on update cascade
);
create index feature_tags_tag_idx on feature_tags (tag_type, tag_value);

create table feature_dependencies (
  parent text not null references features (name) on delete cascade on update cascade,
  child text not null references features (name) on delete cascade on update cascade,
  enabled boolean not null default true,
  variants jsonb not null default '[]',
  primary key (parent, child)
);
create index feature_dependencies_child_idx on feature_dependencies (child);
`;
    for (const statement of sql.split(/;\s*\n/).map((s) => s.trim()).filter(Boolean)) this.addSql(statement);
    for (const statement of seedStatements()) this.addSql(statement);
  }
}
