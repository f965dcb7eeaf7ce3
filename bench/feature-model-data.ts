/**
 * The feature-model data set shared by the benchmarks: 1 project, 2 environments, 20 context fields and 1000 features,
 * each with 2 strategies per environment (2–3 constraints, 2 variants), environment variants on half of them, a tag on
 * every tenth, and the audit events such a history leaves (created, strategies added, enabled). Written with plain SQL so
 * seeding takes seconds; the shapes are those the services write.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';

export const PROJECT = 'bench';
export const ENVIRONMENTS = ['development', 'production'];
export const FEATURES = 1000;
export const featureName = (i: number) => `feature-${String(i).padStart(4, '0')}`;

const OPERATORS: Array<[string, (i: number) => { values?: string[]; value?: string }]> = [
  ['IN', (i) => ({ values: [`v${i % 7}`, `v${(i + 3) % 7}`] })],
  ['NOT_IN', (i) => ({ values: [`x${i % 5}`] })],
  ['STR_STARTS_WITH', (i) => ({ values: [`pre${i % 3}`] })],
  ['NUM_GT', (i) => ({ value: String(i % 100) })],
  ['SEMVER_GT', (i) => ({ value: `1.${i % 10}.0` })],
  ['DATE_AFTER', () => ({ value: '2024-01-01T00:00:00.000Z' })],
];

async function insertRows(db: Client, table: string, columns: string[], rows: unknown[][], casts: string[] = []): Promise<void> {
  for (let start = 0; start < rows.length; start += 500) {
    const chunk = rows.slice(start, start + 500);
    const params: unknown[] = [];
    const values = chunk.map((r) => `(${r.map((v, j) => { params.push(v); return `$${params.length}${casts[j] ?? ''}`; }).join(', ')})`);
    await db.query(`insert into ${table} (${columns.join(', ')}) values ${values.join(', ')}`, params);
  }
}

export async function seedFeatureModel(db: Client): Promise<void> {
  await db.query(`insert into projects (id, name, description) values ($1, 'Bench', 'benchmark project')`, [PROJECT]);
  await db.query(`insert into project_environments (project_id, environment_name) select $1, name from environments where name = any($2)`, [PROJECT, ENVIRONMENTS]);
  const contextFields = Array.from({ length: 20 }, (_, i) => `field${i}`);
  await insertRows(db, 'context_fields', ['name', 'description', 'legal_values'],
    contextFields.map((name, i) => [name, `bench field ${i}`, JSON.stringify(i % 4 === 0 ? Array.from({ length: 7 }, (_, k) => ({ value: `v${k}` })) : [])]), ['', '', '::jsonb']);
  await db.query(`insert into tags (type, value) values ('simple', 'bench-tag')`);

  const features: unknown[][] = [];
  const featureEnvs: unknown[][] = [];
  const strategies: unknown[][] = [];
  const tags: unknown[][] = [];
  const events: unknown[][] = [];
  const day = 86_400_000;
  const now = Date.now();
  for (let i = 0; i < FEATURES; i++) {
    const name = featureName(i);
    const createdAt = new Date(now - (i % 90) * day);
    const type = ['release', 'experiment', 'operational', 'kill-switch', 'permission'][i % 5];
    features.push([name, PROJECT, type, `Feature ${i}`, i % 13 === 0, createdAt]);
    events.push(['feature-created', PROJECT, null, name, JSON.stringify({ name, project: PROJECT, type }), createdAt]);
    if (i % 10 === 0) tags.push([name, 'simple', 'bench-tag']);
    ENVIRONMENTS.forEach((env, e) => {
      const variants = i % 2 === 0 ? [
        { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default', overrides: [] },
        { name: 'green', weight: 500, weightType: 'variable', stickiness: 'default', overrides: [] },
      ] : [];
      featureEnvs.push([name, env, (i + e) % 3 !== 0, JSON.stringify(variants)]);
      for (let s = 0; s < 2; s++) {
        const k = i * 4 + e * 2 + s;
        const constraints = Array.from({ length: 2 + (k % 2) }, (_, c) => {
          const [operator, value] = OPERATORS[(k + c) % OPERATORS.length];
          return { contextName: contextFields[(k + c * 7) % 20], operator, caseInsensitive: false, inverted: c === 2, values: [], ...value(k + c) };
        });
        const strategyVariants = [
          { name: 'on', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'on' } },
          { name: 'off', weight: 500, weightType: 'variable', stickiness: 'default' },
        ];
        const id = randomUUID();
        const parameters = { rollout: String((k * 37) % 101), stickiness: 'default', groupId: name };
        strategies.push([id, name, PROJECT, env, 'flexibleRollout', JSON.stringify(parameters), JSON.stringify(constraints), JSON.stringify(strategyVariants), s, s === 1 && k % 5 === 0]);
        events.push(['feature-strategy-add', PROJECT, env, name, JSON.stringify({ id, name: 'flexibleRollout', parameters, constraints, variants: strategyVariants }), createdAt]);
      }
      if ((i + e) % 3 !== 0) events.push(['feature-environment-enabled', PROJECT, env, name, null, new Date(createdAt.getTime() + 3 * day)]);
    });
  }
  await insertRows(db, 'features', ['name', 'project', 'type', 'description', 'stale', 'created_at'], features);
  await insertRows(db, 'feature_environments', ['feature_name', 'environment', 'enabled', 'variants'], featureEnvs, ['', '', '', '::jsonb']);
  await insertRows(db, 'feature_strategies', ['id', 'feature_name', 'project', 'environment', 'strategy_name', 'parameters', 'constraints', 'variants', 'sort_order', 'disabled'],
    strategies, ['::uuid', '', '', '', '', '::jsonb', '::jsonb', '::jsonb']);
  await insertRows(db, 'feature_tags', ['feature_name', 'tag_type', 'tag_value'], tags);
  await insertRows(db, 'events', ['type', 'project', 'environment', 'feature_name', 'data', 'created_at', 'created_by'],
    events.map((e) => [...e, 'bench']), ['', '', '', '', '::jsonb']);
  await db.query('analyze');
}

/** The GraphQL query of the feature list with what the REST list carries per environment. */
export const FEATURE_QUERY = `{ project(id: "${PROJECT}") { features(first: ${FEATURES}) { nodes { name type stale environments { name enabled strategies { name parameters constraints { contextName operator values inverted caseInsensitive } variants { name weight stickiness } } variants { name weight } } } } } }`;

/** The list fields of the same features (what a feature list page shows), without strategies: for later comparisons. */
export const FEATURE_LIST_QUERY = `{ project(id: "${PROJECT}") { features(first: ${FEATURES}) { nodes { name type description stale impressionData createdAt lastSeenAt environments { name enabled type sortOrder variantCount lastSeenAt hasStrategies hasEnabledStrategies } tags { type value } } } } }`;

/**
 * The REST answer with the content of FEATURE_QUERY, computed per request: the state export's features,
 * featureEnvironments (enabled, variants) and featureStrategies (parameters, constraints, variants), the other sections
 * left out. It carries a little more per strategy (id, projectId, createdAt, disabled) than the query asks for.
 */
export const STATE_EXPORT_FEATURES = '/api/admin/state/export?strategies=false&projects=false&tags=false&environments=false';
