import { Migration } from '@mikro-orm/migrations';

/**
 * Role names are unique whatever their case: a root role may be given by name, case-insensitively (D14), so
 * "Editors" and "editors" could not both be meant. The unique index also decides two concurrent creates of one name.
 */
export class Migration0007RoleNames extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create unique index roles_name_lower_idx on roles (lower(name))`);
  }
}
