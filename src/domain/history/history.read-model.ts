import type { EntityManager } from '@mikro-orm/postgresql';
import type { FeatureState, SegmentState } from './feature-state';

/** A past instant (a commit time at or before it) or revision (a `model_version` at or before it). */
export type Point = { at: Date } | { revision: string };

/** A version's row. */
export interface VersionRow {
  version: number;
  revision: string;
  committed_at: string;
  txid: string;
  state: FeatureState | null;
}

/** An event that made a version (the version's transaction wrote it). */
export interface VersionEventRow {
  id: string;
  txid: string;
  type: string;
  created_by: string;
  created_by_user_id: number | null;
  created_at: string;
  environment: string | null;
  feature_name: string | null;
}

export interface StatesFilter {
  /** `*` or absent: every project (the project the feature was in at that point). */
  projects?: readonly string[] | '*';
  names?: readonly string[];
  /** Only features that were not archived then. */
  active?: boolean;
  /** Name order (the client API's) or creation order (the playground's). */
  order?: 'name' | 'created';
  /** Only these environments of each state (default all). */
  environments?: readonly string[];
}

const pointSql = (point: Point): [string, unknown] =>
  ('at' in point ? ['committed_at <= ?', point.at.toISOString()] : ['revision <= ?', point.revision]);

/**
 * Reads of versions (migration 0024). The state of everything at a point is, per feature, its newest version at or
 * before it; a feature whose newest version there is null did not exist then. Each read is one statement.
 */
export class HistoryReadModel {
  constructor(private readonly em: EntityManager) {}

  /** The earliest instant history describes (null: every instant since the database was created). */
  async horizon(): Promise<Date | null> {
    const rows: Array<{ since: string }> = await this.em.execute(`select since from history_horizon where id = 1`);
    return rows.length ? new Date(rows[0].since) : null;
  }

  async states(point: Point, filter: StatesFilter = {}): Promise<FeatureState[]> {
    if (filter.names?.length === 0 || (filter.projects !== undefined && filter.projects !== '*' && filter.projects.length === 0)) return [];
    const [cond, value] = pointSql(point);
    const params: unknown[] = [];
    // Only the environments asked for leave the database: half the bytes to send and parse for one of two.
    let state = 'v.state';
    if (filter.environments) {
      state = `v.state || jsonb_build_object('environments', coalesce((select jsonb_agg(e) from jsonb_array_elements(v.state->'environments') e where e->>'name' in (?)), '[]'::jsonb))`;
      params.push([...filter.environments]);
    }
    params.push(value);
    let names = '';
    if (filter.names) {
      names = ' and feature_name in (?)';
      params.push([...filter.names]);
    }
    const where = ['v.state is not null'];
    if (filter.active) where.push(`v.state->>'archivedAt' is null`);
    if (filter.projects !== undefined && filter.projects !== '*') {
      where.push(`v.state->>'project' in (?)`);
      params.push([...filter.projects]);
    }
    const order = filter.order === 'created' ? `v.state->>'createdAt', v.feature_name` : 'v.feature_name';
    // Each flag's newest version at the point, from the index on commit times; then only those states are read, one
    // primary-key lookup each (a lateral with `limit 1`, which the planner keeps as it is: it cannot estimate the jsonb filters and would
    // otherwise join the other way round, testing every version against every flag).
    const rows: Array<{ state: FeatureState }> = await this.em.execute(
      `select ${state} as state from (
         select feature_name, max(version) as version from feature_versions where ${cond}${names} group by feature_name) l
         cross join lateral (select x.feature_name, x.state from feature_versions x where x.feature_name = l.feature_name and x.version = l.version limit 1) v
        where ${where.join(' and ')}
        order by ${order}`, params);
    return rows.map((r) => r.state);
  }

  /** The segments that existed at `point` (of `ids` when given), by id. */
  async segments(point: Point, ids?: readonly number[]): Promise<SegmentState[]> {
    if (ids?.length === 0) return [];
    const [cond, value] = pointSql(point);
    const rows: Array<{ state: SegmentState }> = await this.em.execute(
      `select v.state from (
         select segment_id, max(version) as version from segment_versions where ${cond}${ids ? ' and segment_id in (?)' : ''} group by segment_id) l
         cross join lateral (select x.segment_id, x.state from segment_versions x where x.segment_id = l.segment_id and x.version = l.version limit 1) v
        where v.state is not null order by v.segment_id`, ids ? [value, [...ids]] : [value]);
    return rows.map((r) => r.state);
  }

  /** A feature's versions, newest first: `limit` of them older than version `before` (all when absent). */
  async versions(name: string, limit: number, before?: number): Promise<VersionRow[]> {
    return this.em.execute(
      `select version, revision::text as revision, committed_at, txid::text as txid, state from feature_versions
        where feature_name = ?${before !== undefined ? ' and version < ?' : ''} order by version desc limit ?`,
      before !== undefined ? [name, before, limit] : [name, limit]);
  }

  /** One version of a feature, or undefined. */
  async version(name: string, version: number): Promise<VersionRow | undefined> {
    const rows: VersionRow[] = await this.em.execute(
      `select version, revision::text as revision, committed_at, txid::text as txid, state from feature_versions where feature_name = ? and version = ?`,
      [name, version]);
    return rows[0];
  }

  /** The version of a feature the transaction `txid` recorded, or undefined. */
  async versionOfTransaction(name: string, txid: string): Promise<VersionRow | undefined> {
    const rows: VersionRow[] = await this.em.execute(
      `select version, revision::text as revision, committed_at, txid::text as txid, state from feature_versions where feature_name = ? and txid = ?::xid8`,
      [name, txid]);
    return rows[0];
  }

  /** The newest version of a feature at `point` (the newest of all when absent), or undefined. */
  async versionAt(name: string, point?: Point): Promise<VersionRow | undefined> {
    const [cond, value] = point ? pointSql(point) : ['true', undefined];
    const rows: VersionRow[] = await this.em.execute(
      `select version, revision::text as revision, committed_at, txid::text as txid, state from feature_versions
        where feature_name = ? and ${cond} order by version desc limit 1`, point ? [name, value] : [name]);
    return rows[0];
  }

  /** The events the transactions `txids` wrote about feature `name` (or about no feature), oldest first. */
  async events(txids: readonly string[], name: string): Promise<VersionEventRow[]> {
    if (txids.length === 0) return [];
    return this.em.execute(
      `select id::text as id, txid::text as txid, type, created_by, created_by_user_id, created_at, environment, feature_name from events
        where txid in (?) and (feature_name = ? or feature_name is null) order by id`, [[...txids], name]);
  }

  /** The environments of a project that are on now, with their type and order: where a past flag is shown. */
  async projectEnvironments(project: string): Promise<Array<{ name: string; type: string; sort_order: number }>> {
    return this.em.execute(
      `select e.name, e.type, e.sort_order from environments e
         join project_environments pe on pe.environment_name = e.name and pe.project_id = ?
        where e.enabled order by e.sort_order, e.name`, [project]);
  }

  /** The revision a point names, or the newest committed at or before its instant ('0' before any). */
  async revisionAt(point: Point): Promise<string> {
    if ('revision' in point) return point.revision;
    // Commit times follow revisions (both are taken under the counter's lock), so the newest commit time's rows hold it.
    const newest = (table: string) => `(select max(revision) from ${table} where committed_at = (select max(committed_at) from ${table} where committed_at <= ?))`;
    const at = point.at.toISOString();
    const rows: Array<{ revision: string | null }> = await this.em.execute(
      `select greatest(${newest('feature_versions')}, ${newest('segment_versions')})::text as revision`, [at, at]);
    return rows[0]?.revision ?? '0';
  }

  /** Names of the features that depended on `name` at `point` (its children then), by name. */
  async children(name: string, point: Point): Promise<string[]> {
    const [cond, value] = pointSql(point);
    const parent = JSON.stringify([{ feature: name }]);
    // Candidates first, through the index on versions that hold dependencies; then each one's state at the point.
    const rows: Array<{ name: string }> = await this.em.execute(
      `select v.feature_name as name from (
         select distinct on (feature_name) feature_name, state from feature_versions
          where ${cond} and feature_name in (
            select feature_name from feature_versions where state->'dependencies' <> '[]'::jsonb and state->'dependencies' @> ?::jsonb)
          order by feature_name, version desc) v
        where v.state->'dependencies' @> ?::jsonb order by v.feature_name`,
      [value, parent, parent]);
    return rows.map((r) => r.name);
  }
}
