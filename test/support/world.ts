import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * A saved copy of every table's rows and every sequence's position, restored in one round trip. Tests that must run
 * many state-changing requests each against the same starting world (the permission matrix) build the world once
 * through the API, save it, and restore it before each request.
 */
export interface SavedWorld {
  restore(): Promise<void>;
}

/** A dollar-quote tag that does not occur in `text`. */
function quote(text: string): string {
  let tag = 'w';
  while (text.includes(`$${tag}$`)) tag += 'w';
  return `$${tag}$${text}$${tag}$`;
}

export async function saveWorld(orm: MikroORM): Promise<SavedWorld> {
  const em = orm.em.fork();
  const tables: Array<{ tablename: string }> = await em.execute(
    `select tablename from pg_tables where schemaname = current_schema() and tablename <> 'mikro_orm_migrations' order by 1`);
  // Triggers (usage counters, the model version) and foreign keys are off while the rows go back: the trigger-kept
  // tables are restored as they were saved, and the rows as a whole are consistent.
  const statements = ['set local session_replication_role = replica'];
  for (const { tablename } of tables) {
    const [{ rows }] = await em.execute(`select coalesce(json_agg(t), '[]')::text as rows from "${tablename}" t`);
    // DELETE, not TRUNCATE: these tables hold a few rows, and TRUNCATE's file work costs milliseconds per table.
    statements.push(`delete from "${tablename}"`);
    if (rows !== '[]') statements.push(`insert into "${tablename}" select * from json_populate_recordset(null::"${tablename}", ${quote(rows as string)}::json)`);
  }
  const sequences: Array<{ name: string; value: string; called: boolean }> = await em.execute(
    `select sequencename as name, coalesce(last_value, start_value)::text as value, last_value is not null as called
       from pg_sequences where schemaname = current_schema()`);
  for (const s of sequences) statements.push(`select setval('"${s.name}"', ${Number(s.value)}, ${s.called})`);
  // No parameters: sent as one simple-protocol query, so all of it is one round trip inside one transaction.
  const script = `begin; ${statements.join('; ')}; commit`;
  return {
    async restore() {
      await orm.em.getConnection().getKnex().raw(script);
    },
  };
}
