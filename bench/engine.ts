/**
 * Throughput of the pure evaluation engine (src/domain/playground) on the feature-model shape of
 * bench/feature-model-data.ts, in memory: 1000 features in one environment, each with 2 flexibleRollout strategies
 * (2–3 constraints, 2 strategy variants, every fifth second strategy disabled), environment variants on half of them.
 * Compiles once, then evaluates many contexts (a different userId each) for a few seconds per path and prints feature
 * evaluations per second for the fast path (isEnabled + variant) and the full detailed playground result.
 * Usage: npm run bench:engine [-- --seconds 3]
 */
import type { Constraint } from '../src/domain/features/constraint.shapes';
import { compile, evaluate, evaluateFast } from '../src/domain/playground/engine';
import type { PlaygroundContext, PlaygroundFeatureInput } from '../src/domain/playground/types';
import { FEATURES, PROJECT, featureName } from './feature-model-data';

const args = process.argv.slice(2);
const seconds = Number(args.includes('--seconds') ? args[args.indexOf('--seconds') + 1] : '3');
const ENVIRONMENT = 'production';
const ENV_INDEX = 1; // production's position in the data set's environment list

// The data set's constraint mix (mirrors bench/feature-model-data.ts).
const OPERATORS: Array<[Constraint['operator'], (i: number) => { values?: string[]; value?: string }]> = [
  ['IN', (i) => ({ values: [`v${i % 7}`, `v${(i + 3) % 7}`] })],
  ['NOT_IN', (i) => ({ values: [`x${i % 5}`] })],
  ['STR_STARTS_WITH', (i) => ({ values: [`pre${i % 3}`] })],
  ['NUM_GT', (i) => ({ value: String(i % 100) })],
  ['SEMVER_GT', (i) => ({ value: `1.${i % 10}.0` })],
  ['DATE_AFTER', () => ({ value: '2024-01-01T00:00:00.000Z' })],
];
const contextFields = Array.from({ length: 20 }, (_, i) => `field${i}`);

function buildFeatures(): PlaygroundFeatureInput[] {
  const features: PlaygroundFeatureInput[] = [];
  for (let i = 0; i < FEATURES; i++) {
    const name = featureName(i);
    const e = ENV_INDEX;
    const strategies: PlaygroundFeatureInput['strategies'] = [];
    for (let s = 0; s < 2; s++) {
      const k = i * 4 + e * 2 + s;
      const constraints = Array.from({ length: 2 + (k % 2) }, (_, c): Constraint => {
        const [operator, value] = OPERATORS[(k + c) % OPERATORS.length];
        return { contextName: contextFields[(k + c * 7) % 20], operator, caseInsensitive: false, inverted: c === 2, values: [], ...value(k + c) };
      });
      strategies.push({
        id: `${name}-${s}`,
        name: 'flexibleRollout',
        title: null,
        disabled: s === 1 && k % 5 === 0,
        sortOrder: s,
        parameters: { rollout: String((k * 37) % 101), stickiness: 'default', groupId: name },
        constraints,
        variants: [
          { name: 'on', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'on' } },
          { name: 'off', weight: 500, weightType: 'variable', stickiness: 'default' },
        ],
        segments: [],
      });
    }
    features.push({
      name,
      project: PROJECT,
      enabled: (i + e) % 3 !== 0,
      strategies,
      variants: i % 2 === 0 ? [
        { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default', overrides: [] },
        { name: 'green', weight: 500, weightType: 'variable', stickiness: 'default', overrides: [] },
      ] : [],
      dependencies: [],
    });
  }
  return features;
}

/** Contexts with distinct userIds and field values that make every kind of constraint go both ways. */
function buildContexts(count: number): PlaygroundContext[] {
  return Array.from({ length: count }, (_, u) => {
    const properties: Record<string, string> = {};
    contextFields.forEach((field, f) => {
      const r = (u * 31 + f * 17) % 97;
      properties[field] = r % 4 === 0 ? `v${r % 7}` : r % 4 === 1 ? `pre${r % 3}-${u}` : r % 4 === 2 ? String(r) : `1.${r % 12}.${u % 3}`;
    });
    return { appName: 'bench', userId: `user-${u}`, sessionId: `session-${u}`, properties };
  });
}

function run(label: string, contexts: PlaygroundContext[], once: (context: PlaygroundContext) => number): void {
  // Warm up, then measure whole passes over the features for `seconds`.
  for (let i = 0; i < 200; i++) once(contexts[i % contexts.length]);
  let evaluations = 0;
  let enabled = 0;
  let n = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(Math.round(seconds * 1e9));
  let elapsed = 0n;
  while (elapsed < budget) {
    for (let i = 0; i < 50; i++) {
      enabled += once(contexts[n % contexts.length]);
      evaluations += FEATURES;
      n += 1;
    }
    elapsed = process.hrtime.bigint() - start;
  }
  const secs = Number(elapsed) / 1e9;
  const perSecond = Math.round(evaluations / secs);
  console.log(`${label.padEnd(16)} ${perSecond.toLocaleString('en-US').padStart(12)} feature evaluations/s  (${n} contexts × ${FEATURES} features in ${secs.toFixed(2)} s, ${(100 * enabled / evaluations).toFixed(1)}% enabled)`);
}

function measure(title: string, features: PlaygroundFeatureInput[], contexts: PlaygroundContext[]): void {
  const t0 = process.hrtime.bigint();
  const snapshot = compile(features, []);
  const compileMs = Number(process.hrtime.bigint() - t0) / 1e6;
  console.log(`${title}; compile ${compileMs.toFixed(1)} ms`);
  run('fast path', contexts, (context) => {
    let on = 0;
    for (const d of evaluateFast(snapshot, context)) if (d.isEnabled) on += 1;
    return on;
  });
  run('detailed result', contexts, (context) => {
    let on = 0;
    for (const r of evaluate(snapshot, context, ENVIRONMENT)) if (r.isEnabled) on += 1;
    return on;
  });
}

function main(): void {
  const features = buildFeatures();
  const contexts = buildContexts(10_000);
  measure(`${FEATURES} features (2 flexibleRollout strategies each, 2–3 constraints, 2 variants), one environment`, features, contexts);
  // The same features without constraints: every active strategy reaches its rollout hash and variant selection.
  const unconstrained = features.map((f) => ({ ...f, strategies: f.strategies.map((s) => ({ ...s, constraints: [] })) }));
  measure('\nthe same without constraints (every strategy hashes; variants picked)', unconstrained, contexts);
}

main();
