/**
 * Strategies (reference §3.2 and §3.3): compiling one (its kind numbered, rollout percentage, group id and stickiness
 * read, `userIds` and `IPs` split, segment ids resolved with unknown ones dropped, its constraints and variants
 * compiled), its own condition for a resolved context, and its entry in the detailed result.
 */
import type { StrategyVariant } from '../features/variant.shapes';
import * as compiled from './compiled';
import type { CompiledSegment, CompiledStrategy, SnapshotCompiler } from './compiled';
import * as hashing from './hashing';
import * as ipv4 from './ipv4';
import type { AddressRule } from './ipv4';
import * as operators from './operators';
import type { ResolvedContext } from './resolved-context';
import type { PlaygroundFeatureInput, PlaygroundStrategyInput } from './types';
import type { PlaygroundConstraintResult, PlaygroundSegmentResult, PlaygroundStrategyEvaluation, PlaygroundStrategyResult } from './playground.shapes';
import * as variants from './variants';

// Imported bindings copied into module constants once: some transpilers (esbuild, used by tsx) turn every access to
// an imported binding into a getter call, which is measurable in the evaluation loops.
const {
  EMPTY, K_DEFAULT, K_FLEXIBLE_ROLLOUT, K_GRADUAL_RANDOM, K_GRADUAL_SESSION_ID, K_GRADUAL_USER_ID, K_REMOTE_ADDRESS, K_UNKNOWN,
  K_USER_WITH_ID, STICKY_DEFAULT, STICKY_FIELD, STICKY_RANDOM,
} = compiled;
const { STRATEGY_SEED, bucket } = hashing;
const { compileAddressRule, matchesAddress } = ipv4;
const { compileConstraints, listConstraints } = operators;
const { compileVariants, selectVariantIndex, variantList } = variants;

/** applicationHostname is deliberately absent: the server cannot know the host, so it is `incomplete` (reference §3.2). */
const STRATEGY_KINDS: ReadonlyMap<string, number> = new Map([
  ['default', K_DEFAULT], ['userWithId', K_USER_WITH_ID], ['flexibleRollout', K_FLEXIBLE_ROLLOUT],
  ['gradualRolloutUserId', K_GRADUAL_USER_ID], ['gradualRolloutSessionId', K_GRADUAL_SESSION_ID],
  ['gradualRolloutRandom', K_GRADUAL_RANDOM], ['remoteAddress', K_REMOTE_ADDRESS],
]);

const UNEVALUATED: PlaygroundStrategyResult = Object.freeze({ enabled: 'unknown', evaluationStatus: 'unevaluated' });
const INCOMPLETE_UNKNOWN: PlaygroundStrategyResult = Object.freeze({ enabled: 'unknown', evaluationStatus: 'incomplete' });
const INCOMPLETE_FALSE: PlaygroundStrategyResult = Object.freeze({ enabled: false, evaluationStatus: 'incomplete' });
const COMPLETE_TRUE: PlaygroundStrategyResult = Object.freeze({ enabled: true, evaluationStatus: 'complete' });
const COMPLETE_FALSE: PlaygroundStrategyResult = Object.freeze({ enabled: false, evaluationStatus: 'complete' });

// ---- compiling ----------------------------------------------------------------------------------------------

function stickinessOf(name: string, compiler: SnapshotCompiler): [number, number] {
  if (name === 'default') return [STICKY_DEFAULT, -1];
  if (name === 'random') return [STICKY_RANDOM, -1];
  return [STICKY_FIELD, compiler.slot(name)];
}

export function compileStrategy(s: PlaygroundStrategyInput, feature: PlaygroundFeatureInput, segments: ReadonlyMap<number, CompiledSegment>,
  compiler: SnapshotCompiler): CompiledStrategy {
  const kind = STRATEGY_KINDS.get(s.name) ?? K_UNKNOWN;
  const parameters = s.parameters ?? {};
  // Parameter names are the user's: only the object's own properties are parameters.
  const param = (name: string): string | undefined => (Object.hasOwn(parameters, name) ? parameters[name] : undefined);
  let percentage = NaN;
  let groupPrefix: string | null = null;
  let stickiness = STICKY_DEFAULT;
  let stickinessSlot = -1;
  let userIds: Set<string> | null = null;
  let addressRules: AddressRule[] | null = null;
  if (kind === K_FLEXIBLE_ROLLOUT) {
    percentage = Number(param('rollout'));
    groupPrefix = param('groupId') ? `${param('groupId')}:` : null;
    [stickiness, stickinessSlot] = stickinessOf(param('stickiness') || 'default', compiler);
  } else if (kind === K_GRADUAL_USER_ID || kind === K_GRADUAL_SESSION_ID || kind === K_GRADUAL_RANDOM) {
    percentage = Number(param('percentage'));
    groupPrefix = `${param('groupId') || ''}:`;
  } else if (kind === K_USER_WITH_ID) {
    userIds = new Set(param('userIds') ? String(param('userIds')).split(/\s*,\s*/) : EMPTY);
  } else if (kind === K_REMOTE_ADDRESS && param('IPs')) {
    addressRules = String(param('IPs')).split(/\s*,\s*/).map(compileAddressRule);
  }
  const resolvedSegments: CompiledSegment[] = [];
  for (const id of s.segments ?? EMPTY) {
    const segment = segments.get(id);
    if (segment) resolvedSegments.push(segment);
  }
  return {
    kind,
    disabled: s.disabled === true,
    constraints: compileConstraints(s.constraints, compiler),
    segments: resolvedSegments,
    percentage,
    groupPrefix,
    stickiness,
    stickinessSlot,
    userIds,
    addressRules,
    // Strategy variants are bucketed with the groupId parameter as given (absent → "undefined", as Unleash's template string).
    variants: compileVariants(s.variants, `${param('groupId')}`, feature.name, param('stickiness') as string, compiler),
    id: s.id,
    name: s.name,
    title: s.title ? s.title : null,
    parametersSource: parameters,
    parameters: null,
    project: feature.project,
    featureName: feature.name,
    linksEnvironment: null,
    links: null,
  };
}

// ---- the strategy's own condition ---------------------------------------------------------------------------

/** flexibleRollout's random stickiness: a string "1".."101" (reference §3.3). */
function randomRolloutId(ctx: ResolvedContext): string {
  return String(Math.round(ctx.random() * 100) + 1);
}

function rolloutHit(prefix: string, id: string, percentage: number): boolean {
  if (!(percentage > 0)) return false;
  if (percentage >= 100) return true;
  return bucket(prefix, id, 100, STRATEGY_SEED) <= percentage;
}

/** The strategy's own condition, for the known kinds (constraints and segments are checked separately). */
export function strategyCondition(s: CompiledStrategy, ctx: ResolvedContext): boolean {
  switch (s.kind) {
    case K_DEFAULT:
      return true;
    case K_FLEXIBLE_ROLLOUT: {
      const id = s.stickiness === STICKY_DEFAULT ? ctx.userId || ctx.sessionId || randomRolloutId(ctx)
        : s.stickiness === STICKY_RANDOM ? randomRolloutId(ctx)
          : ctx.values[s.stickinessSlot];
      if (id === undefined) return false;
      return rolloutHit(s.groupPrefix ?? `${ctx.featureToggle()}:`, id, s.percentage);
    }
    case K_USER_WITH_ID:
      return ctx.userId !== undefined && s.userIds!.has(ctx.userId);
    case K_GRADUAL_USER_ID:
      return ctx.userId !== undefined && rolloutHit(s.groupPrefix!, ctx.userId, s.percentage);
    case K_GRADUAL_SESSION_ID:
      return ctx.sessionId !== undefined && rolloutHit(s.groupPrefix!, ctx.sessionId, s.percentage);
    case K_GRADUAL_RANDOM:
      return s.percentage >= Math.floor(ctx.random() * 100) + 1;
    case K_REMOTE_ADDRESS: {
      const rules = s.addressRules;
      const remote = ctx.remoteAddress;
      if (rules === null || remote === undefined) return false;
      const remoteInt = ctx.remoteAsInt();
      for (let i = 0; i < rules.length; i++) if (matchesAddress(rules[i], remote, remoteInt)) return true;
      return false;
    }
    default:
      return false;
  }
}

// ---- the detailed result ------------------------------------------------------------------------------------

function parametersOf(s: CompiledStrategy): Record<string, string> {
  return s.parameters ??= Object.freeze({ ...s.parametersSource });
}

function linksFor(s: CompiledStrategy, environment: string): { edit: string } {
  if (s.links === null || s.linksEnvironment !== environment) {
    s.links = Object.freeze({
      edit: `/projects/${s.project}/features/${s.featureName}/strategies/edit?environmentId=${environment}&strategyId=${s.id}`,
    });
    s.linksEnvironment = environment;
  }
  return s.links;
}

/** The strategy's entry in the detailed result: every constraint and segment listed with its result, then the outcome. */
export function strategyEvaluation(s: CompiledStrategy, ctx: ResolvedContext, environment: string): PlaygroundStrategyEvaluation {
  const constraints = new Array<PlaygroundConstraintResult>(s.constraints.length);
  let ok = listConstraints(s.constraints, ctx, constraints);
  const segments = new Array<PlaygroundSegmentResult>(s.segments.length);
  for (let i = 0; i < s.segments.length; i++) {
    const segment = s.segments[i];
    const segmentConstraints = new Array<PlaygroundConstraintResult>(segment.constraints.length);
    const pass = listConstraints(segment.constraints, ctx, segmentConstraints);
    segments[i] = { id: segment.id, name: segment.name, result: pass, constraints: segmentConstraints };
    if (!pass) ok = false;
  }
  let result: PlaygroundStrategyResult;
  if (s.disabled) {
    result = UNEVALUATED;
  } else if (s.kind === K_UNKNOWN) {
    result = ok ? INCOMPLETE_UNKNOWN : INCOMPLETE_FALSE;
  } else if (!ok || !strategyCondition(s, ctx)) {
    result = COMPLETE_FALSE;
  } else if (s.variants !== null) {
    const index = selectVariantIndex(s.variants, ctx);
    result = index < 0 ? COMPLETE_TRUE : {
      enabled: true,
      evaluationStatus: 'complete',
      variant: s.variants.results[index],
      variants: variantList(s.variants) as StrategyVariant[],
    };
  } else {
    result = COMPLETE_TRUE;
  }
  const links = linksFor(s, environment);
  const parameters = parametersOf(s);
  return s.title !== null
    ? { name: s.name, id: s.id, title: s.title, disabled: s.disabled, parameters, result, constraints, segments, links }
    : { name: s.name, id: s.id, disabled: s.disabled, parameters, result, constraints, segments, links };
}
