import { Migration } from '@mikro-orm/migrations';

/**
 * Change requests, configuration (issue 12): per project environment, whether direct changes need a change request
 * and how many approvals a request needs. Kept on the project's environment link, so every direct change to a
 * feature in that environment can read it `for share` and a configuration change (which updates the row) is ordered
 * against it.
 */
export class Migration0013ChangeRequestConfig extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table project_environments
  add column change_requests_enabled boolean not null default false,
  add column required_approvals integer not null default 1 check (required_approvals between 1 and 10)`);
  }
}
