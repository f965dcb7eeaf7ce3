import { Migration } from '@mikro-orm/migrations';

/**
 * Change requests (issue 12, parts 5–7): reviews, applying and scheduling.
 * - `change_request_reviews`: one approval or rejection per reviewer and request, with who and when. The primary key
 *   makes a second review by the same reviewer a no-op, so two concurrent approvals by one person count once.
 * - `change_request_changes.snapshot`: what the change's target looked like when the change was made (the strategy,
 *   the environment's variants, the segment), so a later change to it shows as a conflict.
 * - The schedule of a Scheduled request (`scheduled_at`, `schedule_status`, `failure_reason`) and who scheduled it
 *   (the scheduler applies the request in their name). The partial index lets the scheduler find due requests without
 *   reading the others.
 */
export class Migration0015ChangeRequestReviews extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table change_request_reviews (
  change_request_id integer not null references change_requests (id) on delete cascade,
  created_by text not null,
  created_by_user_id integer,
  decision text not null check (decision in ('approved', 'rejected')),
  created_at timestamptz not null default now(),
  primary key (change_request_id, created_by)
)`);
    this.addSql(`alter table change_request_changes add column snapshot jsonb`);
    this.addSql(`alter table change_requests
  add column scheduled_at timestamptz,
  add column schedule_status text check (schedule_status in ('pending', 'failed')),
  add column failure_reason text,
  add column scheduled_by text,
  add column scheduled_by_user_id integer,
  add column applied_at timestamptz`);
    this.addSql(`create index change_requests_due_idx on change_requests (scheduled_at) where state = 'Scheduled' and schedule_status = 'pending'`);
  }
}
