import { Migration } from '@mikro-orm/migrations';

/**
 * Each transaction that moves `model_version` (migration 0004) also announces it on the `flagdeck_model_version`
 * channel, once: PostgreSQL folds identical notifications of one transaction into one, and sends it only if and when
 * the transaction commits. An instance that LISTENs on it (src/domain/events/event-listener.ts) therefore knows that its
 * last read of the counter still holds until it hears otherwise, and can answer SDK polls without reading it
 * (src/domain/client-features/version-reader.ts, VersionReader).
 */
export class Migration0018ModelVersionNotify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function model_version_bump() returns trigger language plpgsql as $$
begin
  insert into model_version (id, version) values (1, 1)
  on conflict (id) do update set version = model_version.version + 1;
  perform pg_notify('flagdeck_model_version', '');
  return null;
end $$`);
  }
}
