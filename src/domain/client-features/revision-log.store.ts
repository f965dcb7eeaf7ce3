import type { EntityManager } from '@mikro-orm/postgresql';
import type { TableRow } from '../rows';
import type { ClientChangeRow, ClientRevisionHorizonRow, ClientRevisionRow } from './revision-log.entity';

/** What changed of one feature over a range of revisions (migration 0023). */
export interface FeatureChange {
  /** The latest revision of the range that changed it. */
  revision: bigint;
  /** Environments of the changed rows; `null` for a change that holds in every environment (the feature itself, tags). */
  environments: Set<string | null>;
  /** Its projects as the changes recorded them (a moved feature records both); empty when none was known. */
  projects: Set<string>;
}

/** The features and segments changed in `(from, to]`. */
export interface RevisionChanges {
  from: bigint;
  to: bigint;
  features: Map<string, FeatureChange>;
  /** Segment id → the latest revision of the range that changed it. */
  segments: Map<number, bigint>;
}

/** A change with the latest revision that made it (`max(r.revision)::text`). */
type ChangeDbRow = Pick<TableRow<ClientChangeRow>, 'kind' | 'key' | 'environment' | 'project'> & Pick<TableRow<ClientRevisionRow>, 'revision'>;

/**
 * What changed between revision `from` and revision `to` (both values of `model_version`), read through `tx`, whose
 * snapshot must have seen `to`; undefined when the log cannot tell: `from` is older than what it keeps (or after a
 * truncation), or later than `to`.
 */
export async function readRevisionChanges(tx: EntityManager, from: bigint, to: bigint): Promise<RevisionChanges | undefined> {
  if (from > to) return undefined;
  const [horizon] = await tx.execute<Array<Pick<TableRow<ClientRevisionHorizonRow>, 'revision'>>>(`select revision::text as revision from client_revision_horizon where id = 1`);
  if (!horizon || BigInt(horizon.revision) > from) return undefined;
  const changes: RevisionChanges = { from, to, features: new Map(), segments: new Map() };
  if (from === to) return changes;
  const rows = await tx.execute<ChangeDbRow[]>(
    `select c.kind, c.key, c.environment, c.project, max(r.revision)::text as revision
       from client_revisions r join client_changes c on c.txid = r.txid
      where r.revision > ? and r.revision <= ?
      group by c.kind, c.key, c.environment, c.project`, [from.toString(), to.toString()]);
  for (const row of rows) {
    const revision = BigInt(row.revision);
    if (row.kind === 's') {
      const id = Number(row.key);
      const known = changes.segments.get(id);
      if (known === undefined || known < revision) changes.segments.set(id, revision);
      continue;
    }
    let change = changes.features.get(row.key);
    if (!change) {
      change = { revision, environments: new Set(), projects: new Set() };
      changes.features.set(row.key, change);
    }
    if (change.revision < revision) change.revision = revision;
    change.environments.add(row.environment);
    if (row.project !== null) change.projects.add(row.project);
  }
  return changes;
}
