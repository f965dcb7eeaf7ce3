import { Migration } from '@mikro-orm/migrations';
import { PREDEFINED_ROLES } from '../../domain/access/permissions';

/** What the built-in root roles said before: they named Unleash where they describe this service. */
const BEFORE: Record<number, string> = {
  1: 'Users with the root admin role have superuser access to Unleash and can perform any operation within the Unleash platform.',
  2: 'Users with the root editor role have access to most features in Unleash, but can not manage users and roles in the root scope. Editors will be added as project owners when creating projects and get superuser rights within the context of these projects. Users with the editor role will also get access to most permissions on the default project by default.',
  3: 'Users with the root viewer role can only read root resources in Unleash. Viewers can be added to specific projects as project members. Users with the viewer role may not view API tokens.',
};

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The built-in root roles' descriptions name flagdeck (written by the first migrations from the code's list). */
export class Migration0022RoleDescriptions extends Migration {
  override async up(): Promise<void> {
    for (const role of PREDEFINED_ROLES) {
      const before = BEFORE[role.id];
      if (before) this.addSql(`update roles set description = ${quote(role.description)} where id = ${role.id} and description = ${quote(before)}`);
    }
  }
}
