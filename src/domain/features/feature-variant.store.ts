import type { EntityManager } from '@mikro-orm/postgresql';
import type { TableRow } from '../rows';
import type { FeatureEnvironmentRow } from './feature-environment.entity';
import type { FeatureVariant } from './variant.shapes';

/** The SQL of a feature's environment variants (feature-variant.service.ts says what each rule is for). */

/** The variants of the feature in the environment as stored (none without a configuration row), the row locked. */
export async function lockEnvironmentVariants(tx: EntityManager, feature: string, environment: string): Promise<FeatureVariant[]> {
  const rows: Array<Pick<TableRow<FeatureEnvironmentRow>, 'variants'>> = await tx.execute(
    `select variants from feature_environments where feature_name = ? and environment = ? for update`, [feature, environment]);
  return rows[0]?.variants ?? [];
}

/** Writes the variants of the feature in the environment (a configuration row switched off when there is none). */
export async function writeEnvironmentVariants(tx: EntityManager, feature: string, environment: string, variants: FeatureVariant[]): Promise<void> {
  await tx.execute(
    `insert into feature_environments (feature_name, environment, enabled, variants) values (?, ?, false, ?::jsonb)
       on conflict (feature_name, environment) do update set variants = excluded.variants`, [feature, environment, JSON.stringify(variants)]);
}

/** The variants of the feature in each of its environments, in the environments' order. */
export async function variantsByEnvironment(tx: EntityManager, feature: string): Promise<Array<Pick<TableRow<FeatureEnvironmentRow>, 'environment' | 'variants'>>> {
  return tx.execute(
    `select fe.environment, fe.variants from feature_environments fe join environments e on e.name = fe.environment
          where fe.feature_name = ? order by e.sort_order, e.name`, [feature]);
}

/** Writes the same variants in every environment of the feature. */
export async function writeVariantsEverywhere(tx: EntityManager, feature: string, variants: FeatureVariant[]): Promise<void> {
  await tx.execute(`update feature_environments set variants = ?::jsonb where feature_name = ?`, [JSON.stringify(variants), feature]);
}
