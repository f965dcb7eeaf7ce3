import { Migration } from '@mikro-orm/migrations';

/**
 * Addon deliveries (issue 11): the transactional outbox. A row is written in the transaction of the change whose event
 * an enabled addon listens to, so a delivery exists exactly when its event committed.
 *
 * - `id` is the idempotency key receivers see (`Idempotency-Key`); `seq` orders the deliveries of an addon (newest
 *   first) and is the paging cursor.
 * - `status`: `pending` until sent, then `delivered`, or `failed` after the last attempt, or `skipped` when the addon
 *   was disabled before it could be sent.
 * - `next_attempt_at` is when a worker may claim it: a claim pushes it forward by the lease, so a worker that dies
 *   mid-send leaves it due again once the lease ends; `claim` names the current claim, so a late answer of an
 *   expired claim cannot overwrite a newer one.
 * - `attempts` holds every attempt: `{attempt, at, durationMs, statusCode, error}` (never a secret).
 */
export class Migration0012AddonDeliveries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table addon_deliveries (
  id uuid primary key default gen_random_uuid(),
  seq bigserial not null unique,
  addon_id integer not null references addons(id) on delete cascade,
  event_id bigint not null references events(id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed', 'skipped')),
  attempt_count integer not null default 0,
  attempts jsonb not null default '[]',
  next_attempt_at timestamptz not null default now(),
  claim uuid,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  redelivery_of uuid
)`);
    this.addSql('create index addon_deliveries_due_idx on addon_deliveries (next_attempt_at) where status = \'pending\'');
    this.addSql('create index addon_deliveries_addon_seq_idx on addon_deliveries (addon_id, seq desc)');
  }
}
