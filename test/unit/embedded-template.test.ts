import { describe, expect, it } from '@jest/globals';
import { Migration } from '@mikro-orm/migrations';
import { templateKey } from '../../src/db/embedded-template';
import { migrationsList } from '../../src/db/migrations';

type Entry = (typeof migrationsList)[number];

/** The key with the migration list changed by `edit` for the call only. */
async function keyWith(edit: (list: Entry[]) => void): Promise<string | undefined> {
  const saved = [...migrationsList];
  try {
    edit(migrationsList);
    return await templateKey();
  } finally {
    migrationsList.splice(0, migrationsList.length, ...saved);
  }
}

const sqlMigration = (sql: string) => class extends Migration {
  override async up(): Promise<void> { this.addSql(sql); }
} as unknown as Entry['class'];

describe('the key of the embedded database template (a new data folder copies it instead of initdb and migrating)', () => {
  it('is the same for the same migrations, and changes when one is added, edited, removed or moved', async () => {
    const key = await templateKey();
    expect(key).toMatch(/^[0-9a-f]{24}$/);
    expect(await templateKey()).toBe(key);
    const keys = [
      await keyWith((list) => list.push({ name: '9999-added', class: sqlMigration('create table added (id int)') })),
      await keyWith((list) => list.push({ name: '9999-added', class: sqlMigration('create table added (id bigint)') })),
      await keyWith((list) => { list[list.length - 1] = { ...list[list.length - 1], class: sqlMigration('select 1') }; }),
      await keyWith((list) => list.pop()),
      await keyWith((list) => { const [a, b] = list.splice(1, 2); list.splice(1, 0, b, a); }),
    ];
    expect(new Set([key, ...keys]).size).toBe(keys.length + 1);
  });

  it('is none when a migration needs the database to say what it runs: such a list never gets a template', async () => {
    const needsDatabase = class extends Migration {
      override async up(): Promise<void> { await this.execute('select 1'); }
    } as unknown as Entry['class'];
    expect(await keyWith((list) => list.push({ name: '9999-reads', class: needsDatabase }))).toBeUndefined();
  });
});
