import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  assembleClientFeatures, toSegment, usedSegmentIds, type ClientFeatureScope, type ClientFeatureSnapshot,
} from '../client-features/client-features.read-model';
import { compile, type CompiledSnapshot } from '../playground/engine';
import { assemblePlaygroundFeatures, toPlaygroundSegment } from '../playground/playground.read-model';
import { stateRows, type FeatureState } from './feature-state';
import { HistoryReadModel, type Point } from './history.read-model';
import { checkKept } from './point';

/**
 * What SDKs were served at a past point, made from versions by the code that makes the present answers: states become
 * the rows the live reads select (`stateRows`), and the same assembly maps them. One REPEATABLE READ snapshot per
 * answer, as the live reads; points before what history keeps are refused.
 */

const READ = { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true, clear: true };

const inScope = (scope: ClientFeatureScope) => (s: FeatureState) =>
  (!scope.namePrefix || s.name.startsWith(scope.namePrefix))
  && (scope.tags.length === 0 || s.tags.some((t) => scope.tags.some(([type, value]) => t.type === type && t.value === value)));

/** The client API's snapshot of `scope` at `point` (its `version`: the point's revision, or the newest at the instant). */
export async function clientSnapshotAt(em: EntityManager, scope: ClientFeatureScope, point: Point): Promise<ClientFeatureSnapshot> {
  return em.fork().transactional(async (tx) => {
    const read = new HistoryReadModel(tx);
    await checkKept(read, point);
    const states = (await read.states(point, { projects: scope.projects, active: true, order: 'name', environments: [scope.environment] })).filter(inScope(scope));
    const rows = stateRows(states, new Set([scope.environment]));
    const features = assembleClientFeatures(rows.features, rows.envRows, rows.strategyRows, rows.dependencyRows);
    const segments = (await read.segments(point, usedSegmentIds(rows.strategyRows))).map(toSegment);
    return { version: await read.revisionAt(point), features, segments };
  }, READ);
}

/** The playground's compiled snapshots of `environments` and `projects` at `point`. */
export async function playgroundSnapshotsAt(
  em: EntityManager, point: Point, environments: readonly string[], projects: readonly string[] | '*',
): Promise<Map<string, CompiledSnapshot>> {
  return em.fork().transactional(async (tx) => {
    const read = new HistoryReadModel(tx);
    await checkKept(read, point);
    const states = await read.states(point, { projects, active: true, order: 'created', environments });
    const rows = stateRows(states, new Set(environments));
    const byEnvironment = assemblePlaygroundFeatures(environments, rows.features, rows.envRows, rows.strategyRows, rows.dependencyRows);
    const segments = (await read.segments(point)).map(toPlaygroundSegment);
    return new Map([...byEnvironment].map(([env, features]) => [env, compile(features, segments)]));
  }, READ);
}
