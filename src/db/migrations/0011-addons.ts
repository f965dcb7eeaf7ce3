import { Migration } from '@mikro-orm/migrations';

/**
 * Addons (issue 11): integrations that receive the audit events they listen to. `parameters` holds the provider's
 * parameters as given (sensitive ones too: every read masks them); `events`, `projects` and `environments` are JSON
 * arrays of names (an empty list of projects or environments means all of them).
 */
export class Migration0011Addons extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table addons (
  id serial primary key,
  provider text not null,
  description text,
  enabled boolean not null default true,
  parameters jsonb not null default '{}',
  events jsonb not null default '[]',
  projects jsonb not null default '[]',
  environments jsonb not null default '[]',
  created_at timestamptz not null default now()
)`);
  }
}
