import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccessService } from '../access/access.service';
import { ADMIN } from '../access/permissions';
import type { Principal } from '../access/principal';
import { ValidationError, type ErrorDetail } from '../errors';
import {
  stateEnvironments, stateFeatureEnvironments, stateFeatures, stateFeatureStrategies, stateFeatureStrategySegments, stateFeatureTags,
  stateProjects, stateSegments, stateStrategies, stateTags, stateTagTypes,
} from './state-export.read-model';
import type { StateExport } from './state-export.shapes';

/**
 * The legacy state export (spec endpoint 16, `GET /api/admin/state/export`; Unleash v5.8, removed in v6).
 *
 * One snapshot of the instance's configuration: every section is read in the same REPEATABLE READ, READ ONLY
 * transaction, so an export taken while others change things is still consistent (a strategy never names a feature
 * the export lacks). One statement per section, whatever the amount of data (plus one for the projects' health);
 * an excluded section is not read at all. Nothing is written: no event. The sections' reads, their shapes and the
 * order of their rows are in state-export.read-model.ts.
 */

/** The sections a caller may leave out, each included by default. `segments` and their strategy links always are. */
export const STATE_EXPORT_FLAGS = ['strategies', 'featureToggles', 'projects', 'tags', 'environments'] as const;
export type StateExportFlag = (typeof STATE_EXPORT_FLAGS)[number];

/** What a caller asks for: booleans (GraphQL) or the raw query-string values (REST), read by `exportFlag`. */
export type StateExportOptions = Partial<Record<StateExportFlag, unknown>>;

/**
 * Unleash's reading of an export flag: a boolean as is; a number (or a string that reads as one) is true when it is
 * not zero; any other string is true only when it is `true` in any case. So `1`, `true` and `TRUE` are true, and `0`,
 * `false`, `no` and the empty string (`?tags=`) are false. Absent gives `fallback`. Anything else (a repeated query
 * parameter arrives as a list) is a 400 ValidationError naming `path`.
 */
export function exportFlag(value: unknown, fallback: boolean, path: string): boolean {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (typeof value === 'string') {
    const text = value.trim();
    if (text !== '' && Number.isFinite(Number(text))) return Number(text) !== 0;
    return value.toLowerCase() === 'true';
  }
  throw ValidationError.single(path, `The \`${path}\` flag must be given once, as true or false (or 1 or 0).`);
}

/** Reads every flag of `options`, reporting all bad ones at once. */
function readFlags(options: StateExportOptions): Record<StateExportFlag, boolean> {
  const details: ErrorDetail[] = [];
  const flags = {} as Record<StateExportFlag, boolean>;
  for (const flag of STATE_EXPORT_FLAGS) {
    try {
      flags[flag] = exportFlag(options[flag], true, flag);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      details.push(...err.details);
    }
  }
  if (details.length > 0) throw ValidationError.of(details);
  return flags;
}

export class StateExportService {
  constructor(private readonly em: EntityManager, private readonly principal: Principal, private readonly access: AccessService) {}

  /**
   * The export (permission ADMIN, checked before the flags are read, as Unleash's route does). Flags default to true.
   * `featureTags` need both `tags` and `featureToggles`; `segments` and `featureStrategySegments` are always there.
   */
  async export(options: StateExportOptions = {}): Promise<StateExport> {
    await this.access.check(ADMIN);
    const include = readFlags(options);
    return this.em.transactional(async (em) => {
      const tx = em as EntityManager;
      // One after the other: a transaction holds one connection, which runs one statement at a time.
      const features = include.featureToggles ? await stateFeatures(tx) : [];
      const strategies = include.strategies ? await stateStrategies(tx) : [];
      const projects = include.projects ? await stateProjects(tx) : [];
      const tagTypes = include.tags ? await stateTagTypes(tx) : [];
      const tags = include.tags ? await stateTags(tx) : [];
      const featureTags = include.tags && include.featureToggles ? await stateFeatureTags(tx) : [];
      const featureStrategies = include.featureToggles ? await stateFeatureStrategies(tx) : [];
      const environments = include.environments ? await stateEnvironments(tx) : [];
      const featureEnvironments = include.featureToggles ? await stateFeatureEnvironments(tx) : [];
      const segments = await stateSegments(tx);
      const featureStrategySegments = await stateFeatureStrategySegments(tx);
      return {
        version: 4 as const,
        features, strategies, projects, tagTypes, tags, featureTags, featureStrategies, environments, featureEnvironments, segments, featureStrategySegments,
      };
    }, { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true, clear: true });
  }
}
