import { Migration } from '@mikro-orm/migrations';

/**
 * Change requests (issue 12): a request of one project environment, its changes and its comments.
 * - One Draft per author and project environment (the partial unique index): a new change goes into the author's Draft.
 * - A change names its feature (or, for segment changes, none) and carries its action's payload as sent.
 */
export class Migration0014ChangeRequests extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table change_requests (
  id serial primary key,
  project text not null,
  environment text not null,
  title text,
  state text not null default 'Draft' check (state in ('Draft', 'In review', 'Approved', 'Applied', 'Cancelled', 'Rejected', 'Scheduled')),
  min_approvals integer not null,
  created_by text not null,
  created_by_user_id integer,
  created_at timestamptz not null default now(),
  foreign key (project, environment) references project_environments (project_id, environment_name) on delete cascade
)`);
    this.addSql(`create unique index change_requests_one_draft_idx on change_requests (project, environment, created_by) where state = 'Draft'`);
    this.addSql(`create index change_requests_project_state_idx on change_requests (project, state)`);
    this.addSql(`create table change_request_changes (
  id serial primary key,
  change_request_id integer not null references change_requests (id) on delete cascade,
  feature text,
  action text not null,
  payload jsonb not null default '{}',
  created_by text not null,
  created_by_user_id integer,
  created_at timestamptz not null default now()
)`);
    this.addSql(`create index change_request_changes_request_idx on change_request_changes (change_request_id, id)`);
    this.addSql(`create index change_request_changes_feature_idx on change_request_changes (feature) where feature is not null`);
    this.addSql(`create table change_request_comments (
  id serial primary key,
  change_request_id integer not null references change_requests (id) on delete cascade,
  text text not null,
  created_by text not null,
  created_by_user_id integer,
  created_at timestamptz not null default now()
)`);
    this.addSql(`create index change_request_comments_request_idx on change_request_comments (change_request_id, id)`);
  }
}
