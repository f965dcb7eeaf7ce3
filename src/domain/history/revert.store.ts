import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { FeatureState } from './feature-state';
import type { RevertStep } from './revert-plan';

/** The flag's state now, in the form versions record it (`feature_version_state()`, migration 0024); null: none. */
export async function currentState(tx: EntityManager, name: string): Promise<FeatureState | null> {
  const [row]: Array<{ state: FeatureState | null }> = await tx.execute(`select feature_version_state(?) as state`, [name]);
  return row?.state ?? null;
}

/** The project the flag is in, or was last in when it is gone (undefined: it never existed). */
export async function projectOf(em: EntityManager, name: string): Promise<string | undefined> {
  const [row]: Array<{ project: string | null }> = await em.execute(
    `select coalesce((select project from features where name = ?),
                     (select state->>'project' from feature_versions where feature_name = ? and state is not null order by version desc limit 1)) as project`,
    [name, name]);
  return row?.project ?? undefined;
}

/** Context fields every evaluation knows, defined or not. */
const BUILT_IN_FIELDS = new Set(['appName', 'environment', 'userId', 'sessionId', 'remoteAddress', 'currentTime']);

/**
 * What the steps need that was deleted since the version (a project, an environment, a segment, a context field, a
 * parent flag): a 409 ConflictError naming each, read `for key share` so none goes before the revert commits.
 */
export async function refuseWhatIsGone(tx: EntityManager, name: string, version: number, steps: readonly RevertStep[]): Promise<void> {
  const projects = new Set<string>();
  const environments = new Set<string>();
  const segments = new Set<number>();
  const contextFields = new Set<string>();
  const parents = new Set<string>();
  for (const s of steps) {
    if (s.action === 'createFeature') projects.add(s.project);
    if (s.action === 'moveFeature') projects.add(s.to);
    if ('environment' in s) environments.add(s.environment);
    if (s.action === 'addStrategy' || s.action === 'updateStrategy') {
      for (const id of s.payload.segments) segments.add(id);
      for (const c of s.payload.constraints as Array<{ contextName: string }>) if (!BUILT_IN_FIELDS.has(c.contextName)) contextFields.add(c.contextName);
    }
    if (s.action === 'addDependency') parents.add(s.payload.feature);
  }
  const gone: string[] = [];
  const missing = async (what: string, sql: string, keys: Set<string | number>, label: (k: string) => string) => {
    if (keys.size === 0) return;
    const rows: Array<{ key: string }> = await tx.execute(sql, [[...keys]]);
    const found = new Set(rows.map((r) => String(r.key)));
    for (const k of keys) if (!found.has(String(k))) gone.push(`${what} ${label(String(k))}`);
  };
  await missing('the project', `select id as key from projects where id in (?) for key share`, projects, (k) => `"${k}"`);
  await missing('the environment', `select name as key from environments where name in (?) for key share`, environments, (k) => `"${k}"`);
  await missing('the segment', `select id::text as key from segments where id in (?) for key share`, segments, (k) => k);
  await missing('the context field', `select name as key from context_fields where name in (?) for key share`, contextFields, (k) => `"${k}"`);
  await missing('the flag', `select name as key from features where name in (?) for key share`, parents, (k) => `"${k}"`);
  if (gone.length > 0) {
    throw new ConflictError(`Version ${version} of ${name} needs ${gone.join(', ')}, deleted since: it cannot be brought back.`);
  }
}

/** An audit event as a revert of it needs it. */
export interface RevertedEvent {
  id: number;
  featureName: string;
  project: string;
  environment: string | null;
  /** The strategy a strategy event is about. */
  strategyId: string | null;
  txid: string;
}

/** The event to revert: 404 when unknown; 400 when it is not about a flag or predates versions. */
export async function loadEventForRevert(em: EntityManager, id: number): Promise<RevertedEvent> {
  const [row]: Array<{ feature_name: string | null; project: string | null; environment: string | null; txid: string | null; type: string; strategy_id: string | null }> = await em.execute(
    `select feature_name, project, environment, txid::text as txid, type,
            case when type like 'feature-strategy-%' then coalesce(data->>'id', pre_data->>'id') end as strategy_id
       from events where id = ?`, [id]);
  if (!row) throw new NotFoundError(`Could not find an event with id ${id}.`);
  if (!row.feature_name || !row.project) throw ValidationError.single('id', `Event ${id} is not about a flag: only a flag's changes can be reverted.`);
  if (!row.txid) throw ValidationError.single('id', `Event ${id} was written before versions were kept: revert to a version of the flag instead.`);
  return { id, featureName: row.feature_name, project: row.project, environment: row.environment, strategyId: row.strategy_id, txid: row.txid };
}
