/**
 * Seeds a project of many flags through the GraphQL API as admin (the UI browser test and bench/ui-flags.ts), in
 * requests of 30 aliased mutations (the service's alias limit): created, a tag on every `tagEvery`th, switched on in
 * the project's environments in a pattern, and every `staleEvery`th marked stale. Types cycle through the five.
 */
type Admin = <T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>) => Promise<T>;

export const SEED_TYPES = ['release', 'experiment', 'operational', 'kill-switch', 'permission'];
const BATCH = 30;

export interface SeedOptions {
  /** Names are `${prefix}-${0000 + i}` (default `flag`). */
  prefix?: string;
  /** Environments to switch flags on in (flag i is on in environment e when (i + e) % 3 !== 0). */
  environments?: string[];
  tagEvery?: number;
  staleEvery?: number;
}

export const seededName = (prefix: string, i: number) => `${prefix}-${String(i).padStart(4, '0')}`;

async function batched(admin: Admin, items: string[]): Promise<void> {
  for (let start = 0; start < items.length; start += BATCH) {
    await admin(`mutation { ${items.slice(start, start + BATCH).map((m, i) => `m${i}: ${m}`).join('\n')} }`);
  }
}

export async function seedFlags(admin: Admin, project: string, count: number, options: SeedOptions = {}): Promise<string[]> {
  const { prefix = 'flag', environments = [], tagEvery = 10, staleEvery = 13 } = options;
  const names = Array.from({ length: count }, (_, i) => seededName(prefix, i));
  const q = JSON.stringify;
  await batched(admin, names.map((name, i) =>
    `createFeature(input: { project: ${q(project)}, name: ${q(name)}, type: ${q(SEED_TYPES[i % SEED_TYPES.length])}, description: ${q(`Seeded flag ${i}`)}, stale: ${i % staleEvery === 0} }) { name }`));
  await batched(admin, names.flatMap((name, i) => (i % tagEvery === 0 ? [`tagFeature(input: { feature: ${q(name)}, type: "simple", value: "seeded" }) { value }`] : [])));
  await batched(admin, names.flatMap((name, i) => environments.flatMap((env, e) => ((i + e) % 3 !== 0
    ? [`setFeatureEnvironmentEnabled(input: { project: ${q(project)}, feature: ${q(name)}, environment: ${q(env)}, enabled: true }) { enabled }`]
    : []))));
  return names;
}
