import type { EntityManager } from '@mikro-orm/postgresql';
import type { TableRow } from '../rows';
import type { FeatureEnvironmentRow } from './feature-environment.entity';
import { PROJECT_ENVIRONMENT_LINKED } from './feature.store';
import { PRE_LIVE_ON_SWITCH } from '../lifecycle/lifecycle.store';

/** The SQL of switching a feature on and off in an environment (its `feature_environments` row). */

/** What switching reads: the environment's link to the project, the configuration row's switch and its strategy counts. */
export interface SwitchStateRow {
  linked: boolean | null;
  /** Null when the feature has no configuration row in the environment. */
  enabled: boolean | null;
  strategies: number;
  active: number;
}

/**
 * After the feature's lock, one statement: the environment's link to the project, the configuration row (locked;
 * null when there is none) and how many strategies it has, active or not (every change of those holds the lock).
 */
export async function lockSwitchState(tx: EntityManager, project: string, feature: string, environment: string): Promise<SwitchStateRow> {
  const [row]: SwitchStateRow[] = await tx.execute(
    `select ${PROJECT_ENVIRONMENT_LINKED} as linked,
                (select enabled from feature_environments where feature_name = ? and environment = ? for update) as enabled,
                (select count(*) from feature_strategies where feature_name = ? and environment = ?)::int as strategies,
                (select count(*) from feature_strategies where feature_name = ? and environment = ? and not disabled)::int as active`,
    [project, environment, feature, environment, feature, environment, feature, environment]);
  return row;
}

/** A configuration row, switched off, for an environment the feature has none in. */
export async function insertFeatureEnvironment(tx: EntityManager, feature: string, environment: string): Promise<void> {
  await tx.execute(`insert into feature_environments (feature_name, environment, enabled) values (?, ?, false)`, [feature, environment]);
}

/**
 * Switches the feature on or off in the environment; switched on outside production, the flag enters the pre-live
 * lifecycle stage if it had not (issue 44), in the same statement.
 */
export async function setEnvironmentEnabled(tx: EntityManager, feature: string, environment: string, enabled: boolean): Promise<void> {
  await tx.execute(
    `with switched as (update feature_environments set enabled = ? where feature_name = ? and environment = ? returning feature_name, environment, enabled)
     ${PRE_LIVE_ON_SWITCH}`, [enabled, feature, environment]);
}

type ActiveStrategyStateRow = Pick<TableRow<FeatureEnvironmentRow>, 'enabled'> & { active: number };

/** Whether the feature is switched on in the environment and how many of its strategies there are active (none: no row). */
export async function activeStrategyState(tx: EntityManager, feature: string, environment: string): Promise<ActiveStrategyStateRow | undefined> {
  const rows: ActiveStrategyStateRow[] = await tx.execute(
    `select fe.enabled, (select count(*) from feature_strategies fs where fs.feature_name = fe.feature_name and fs.environment = fe.environment and not fs.disabled)::int as active
         from feature_environments fe where fe.feature_name = ? and fe.environment = ?`, [feature, environment]);
  return rows[0];
}

export async function switchOff(tx: EntityManager, feature: string, environment: string): Promise<void> {
  await tx.execute(`update feature_environments set enabled = false where feature_name = ? and environment = ?`, [feature, environment]);
}
