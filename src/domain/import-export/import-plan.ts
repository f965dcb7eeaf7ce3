import { DomainError, type ErrorDetail } from '../errors';
import { constraintProblems } from '../features/constraints';
import type { FeatureDependency, FeatureStrategy, FeatureSummary } from '../features/feature.shapes';
import type { Tag, TagType } from '../tags/tag.shapes';
import { parameterProblems } from '../features/feature-strategy.rules';
import { toFeatureVariants, toStrategyVariants } from '../features/variants';
import type { FeatureVariant, StrategyVariant } from '../features/variant.shapes';
import { matchesFeatureNaming } from '../projects/feature-naming';
import type { ImportItem, ImportValidation, PlannedStrategy } from './import-export.shapes';
import { planFeature, tagKey, type PlannedFeature } from './import-feature-plan';
import { featureOfEnvironment, tagOf, type ImportContextField, type ImportRequest } from './import-payload';

/** Everything the writer needs, computed once from the payload and the state read under the import's locks. */
export interface ImportPlan {
  report: ImportValidation;
  /** Permissions the caller needs, by name, with the scope each is checked in. */
  required: string[];
  newTagTypes: TagType[];
  newContextFields: ImportContextField[];
  features: PlannedFeature[];
}

/** The state of the instance an import is planned against: read in a fixed number of statements (import-export.read-model.ts). */
export interface ImportState {
  project: { id: string; featureLimit: number | null; naming: { pattern: string | null; example: string | null; description: string | null }; activeFeatures: number } | null;
  /** The environment exists (`exists`) and is enabled for the project (`linked`). */
  environment: { exists: boolean; linked: boolean };
  strategyDefinitions: Map<string, { builtIn: boolean }>;
  contextFields: Map<string, Set<string>>;
  features: Map<string, FeatureSummary>;
  /** Segments an import may use (global, or of the target project), by name; the lowest id when names repeat. */
  segments: Map<string, number>;
  tagTypes: Set<string>;
  featureTypes: Set<string>;
  /** Of the import's features that are active in the target project. */
  strategies: Map<string, FeatureStrategy[]>;
  environments: Map<string, { enabled: boolean; variants: FeatureVariant[] }>;
  tags: Map<string, Tag[]>;
  /** Dependency edges touching the import's features or the parents it names. */
  edges: Array<{ parent: string; child: string; enabled: boolean; variants: string[] }>;
  /** Display names of permissions, by name. */
  permissionNames: Map<string, string>;
}

// ---- planning (pure) -----------------------------------------------------------------------------------------------

const sortedUnique = (items: Iterable<string>) => [...new Set(items)].sort();
const item = (message: string, affectedItems: Iterable<string>): ImportItem => ({ message, affectedItems: [...affectedItems] });

/** The order of Unleash's permission lines (its observed answer for a Viewer), then the ones an import here also needs. */
export const PERMISSION_ORDER = [
  'CREATE_FEATURE', 'UPDATE_FEATURE', 'CREATE_CONTEXT_FIELD', 'CREATE_FEATURE_STRATEGY', 'DELETE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', 'CREATE_TAG_TYPE', 'UPDATE_FEATURE_ENVIRONMENT', 'UPDATE_FEATURE_DEPENDENCY',
];

/**
 * Plans an import: Unleash's errors, warnings and permission needs (reference endpoint 15, in its order and words),
 * the rules a direct edit of each item would apply (reported as errors too, so validation answers what the import
 * would), and per feature what would change. Pure: the same payload and state always give the same plan.
 * `allowed(permission)` says whether the caller holds a permission for the import's project and environment.
 */
export function planImport(request: ImportRequest, state: ImportState, allowed: (permission: string) => boolean): ImportPlan {
  const { project, environment, data } = request;
  const errors: ImportItem[] = [];
  const warnings: ImportItem[] = [];
  const names = data.features.map((f) => f.name);
  const importedNames = new Set(names);

  // Unleash's errors, in its order.
  const unknownStrategies = sortedUnique(data.featureStrategies.map((s) => s.name).filter((n) => !state.strategyDefinitions.has(n)));
  if (unknownStrategies.length) errors.push(item('We detected the following custom strategy that needs to be created first:', unknownStrategies));

  const clashing = sortedUnique((data.contextFields ?? []).filter((f) => {
    const existing = state.contextFields.get(f.name);
    return existing !== undefined && (f.legalValues ?? []).some((v) => !existing.has(v.value));
  }).map((f) => f.name));
  if (clashing.length) errors.push(item('We detected the following context fields that do not have matching legal values with the imported ones:', clashing));

  const elsewhere = sortedUnique(names).flatMap((n) => {
    const f = state.features.get(n);
    return f && f.project !== project ? [`${n} (in project ${f.project})`] : [];
  });
  if (elsewhere.length) {
    errors.push(item(`You cannot import a features that already exist in other projects. You already have the following features defined outside of project ${project}:`, elsewhere));
  }

  const seen = new Set<string>();
  const duplicates = sortedUnique(names.filter((n) => (seen.has(n) ? true : (seen.add(n), false))));
  if (duplicates.length) errors.push(item('We detected the following features are duplicate in your import data:', duplicates));

  const naming = state.project?.naming;
  if (naming?.pattern) {
    const pattern = naming.pattern;
    const mismatched = sortedUnique(names.filter((n) => !matchesFeatureNaming(pattern, n)));
    if (mismatched.length) {
      const example = naming.example ? ` For example: "${naming.example}".` : '';
      const described = naming.description ? ` The pattern is described as follows: "${naming.description}"` : '';
      errors.push(item(`Features imported into this project must match the project's feature naming pattern: "${pattern}".${example}${described} The following features do not match the pattern:`, mismatched));
    }
  }

  const isNew = (n: string) => !state.features.has(n);
  const newCount = new Set(names.filter(isNew)).size;
  const limit = state.project?.featureLimit;
  if (limit !== null && limit !== undefined && newCount > 0 && state.project && state.project.activeFeatures + newCount > limit) {
    errors.push(item(`We detected you want to create ${newCount} new features to a project that already has ${state.project.activeFeatures} existing features, exceeding the maximum limit of ${limit}.`, []));
  }

  const missingSegments = sortedUnique((data.segments ?? []).map((s) => s.name).filter((n) => !state.segments.has(n)));
  if (missingSegments.length) errors.push(item('We detected the following segments that need to be created first:', missingSegments));

  const activeInProject = (n: string) => { const f = state.features.get(n); return f !== undefined && !f.archived && f.project === project; };
  const missingParents = sortedUnique((data.dependencies ?? []).flatMap((d) => d.dependencies.map((p) => p.feature))
    .filter((p) => !importedNames.has(p) && !activeInProject(p)));
  if (missingParents.length) errors.push(item('We detected the following dependencies that need to be created first:', missingParents));

  // The rules direct edits apply, which Unleash leaves to fail halfway through its import.
  if (!state.project) errors.push(item(`The project ${project} does not exist:`, [project]));
  else if (!state.environment.exists) errors.push(item(`The environment ${environment} does not exist:`, [environment]));
  else if (!state.environment.linked) errors.push(item(`The environment ${environment} is not enabled in project ${project}:`, [environment]));

  const unknownTypes = sortedUnique(data.features.map((f) => f.type ?? 'release').filter((t) => !state.featureTypes.has(t)));
  if (unknownTypes.length) errors.push(item('We detected the following feature types that do not exist:', unknownTypes));

  const strays = sortedUnique([
    ...data.featureStrategies.map((s) => s.featureName),
    ...(data.featureEnvironments ?? []).map(featureOfEnvironment),
    ...(data.featureTags ?? []).map((t) => t.featureName),
    ...(data.dependencies ?? []).map((d) => d.feature),
  ].filter((n) => !importedNames.has(n)));
  if (strays.length) errors.push(item('The following features have strategies, environments, tags or dependencies in the import data but are not in its features list:', strays));

  // Context fields as they would be after the import: the existing ones, and the imported ones that are new.
  const newContextFields = dedupeBy(data.contextFields ?? [], (f) => f.name).filter((f) => !state.contextFields.has(f.name));
  const legal = new Map(state.contextFields);
  for (const f of newContextFields) legal.set(f.name, new Set((f.legalValues ?? []).map((v) => v.value)));

  // Each strategy in stored form, checked as adding it directly would check it.
  const segmentIdByImportedId = new Map<number, number | undefined>((data.segments ?? []).map((s) => [s.id, state.segments.get(s.name)]));
  const strategyProblems: string[] = [];
  const unknownFields = new Set<string>();
  const unlistedSegments = new Set<number>();
  const planned = new Map<string, PlannedStrategy[]>();
  data.featureStrategies.forEach((s, i) => {
    const list = planned.get(s.featureName) ?? [];
    planned.set(s.featureName, list);
    const at = `featureStrategies/${i}`;
    const parameters = { ...(s.parameters ?? {}) };
    const details: ErrorDetail[] = parameterProblems(s.name, parameters, 'parameters');
    const checked = constraintProblems(legal, s.constraints ?? [], 'constraints');
    if (checked.unknownField !== undefined) unknownFields.add(checked.unknownField);
    details.push(...checked.details);
    let variants: StrategyVariant[] = [];
    try {
      variants = toStrategyVariants(s.variants ?? [], 'variants');
    } catch (err) {
      details.push(...detailsOf(err));
    }
    const segments: number[] = [];
    for (const id of s.segments ?? []) {
      if (!segmentIdByImportedId.has(id)) unlistedSegments.add(id);
      const target = segmentIdByImportedId.get(id);
      if (target !== undefined && !segments.includes(target)) segments.push(target);
    }
    for (const d of details) strategyProblems.push(`${s.featureName} (${at}/${d.path}): ${d.message}`);
    list.push({
      name: s.name, title: s.title ?? null, disabled: s.disabled ?? false, sortOrder: s.sortOrder ?? list.length,
      parameters, constraints: checked.constraints, variants, segments: segments.sort((a, b) => a - b),
    });
  });
  if (unknownFields.size) errors.push(item('We detected the following context fields that are used in strategy constraints but neither exist nor are imported:', sortedUnique(unknownFields)));
  if (unlistedSegments.size) errors.push(item('We detected strategies that use segments missing from the segments list of the import data; the missing segment ids are:', [...unlistedSegments].sort((a, b) => a - b).map(String)));
  if (strategyProblems.length) errors.push(item('We detected the following strategies that are not valid:', strategyProblems));

  // Environment state and variants as imported (the last item of a feature wins).
  const importedEnvironment = new Map<string, { enabled: boolean; variants?: FeatureVariant[] }>();
  const variantProblems: string[] = [];
  (data.featureEnvironments ?? []).forEach((e, i) => {
    let variants: FeatureVariant[] | undefined;
    if (e.variants !== undefined) {
      try {
        variants = toFeatureVariants(e.variants, 'variants');
      } catch (err) {
        for (const d of detailsOf(err)) variantProblems.push(`${featureOfEnvironment(e)} (featureEnvironments/${i}/${d.path}): ${d.message}`);
      }
    }
    importedEnvironment.set(featureOfEnvironment(e), { enabled: e.enabled, variants });
  });
  if (variantProblems.length) errors.push(item('We detected the following environment variants that are not valid:', variantProblems));

  // Dependencies after the import: the imported children's parents are replaced when the payload lists dependencies.
  const replacesDependencies = data.dependencies !== undefined;
  const importedDeps = new Map<string, FeatureDependency[]>();
  for (const d of data.dependencies ?? []) {
    const list = importedDeps.get(d.feature) ?? [];
    importedDeps.set(d.feature, list);
    for (const p of d.dependencies) {
      const enabled = p.enabled ?? true;
      const dep: FeatureDependency = { feature: p.feature, enabled };
      if (p.variants && p.variants.length) dep.variants = p.variants;
      const at = list.findIndex((x) => x.feature === p.feature);
      if (at >= 0) list[at] = dep;
      else list.push(dep);
    }
  }
  const finalEdges = [
    ...state.edges.filter((e) => !(replacesDependencies && importedNames.has(e.child))),
    ...[...importedDeps.entries()].flatMap(([child, deps]) => deps.map((d) => ({ parent: d.feature, child }))),
  ];
  const parentsAfter = new Set(finalEdges.map((e) => e.parent));
  const childrenAfter = new Set(finalEdges.map((e) => e.child));
  const dependencyProblems: string[] = [];
  for (const [child, deps] of importedDeps) {
    for (const d of deps) {
      if (d.feature === child) dependencyProblems.push(`${child}: a feature cannot depend on itself`);
      else if (!d.enabled && (d.variants ?? []).length > 0) dependencyProblems.push(`${child} → ${d.feature}: variants can only be required of a parent that must be enabled`);
      else if (childrenAfter.has(d.feature)) dependencyProblems.push(`${child} → ${d.feature}: ${d.feature} depends on other features, so it cannot be a parent (dependencies are one level deep)`);
      else if (parentsAfter.has(child)) dependencyProblems.push(`${child} → ${d.feature}: other features depend on ${child}, so it cannot depend on another feature (dependencies are one level deep)`);
    }
  }
  if (dependencyProblems.length) errors.push(item('We detected the following dependencies that cannot be created:', dependencyProblems));

  // Unleash's warnings.
  const usedCustom = sortedUnique(data.featureStrategies.map((s) => s.name).filter((n) => state.strategyDefinitions.get(n)?.builtIn === false));
  if (usedCustom.length) warnings.push(item('The following strategy types will be used in import. Please make sure the strategy type parameters are configured as in source environment:', usedCustom));
  const archived = sortedUnique(names.filter((n) => { const f = state.features.get(n); return f !== undefined && f.archived && f.project === project; }));
  if (archived.length) warnings.push(item('The following features will not be imported as they are currently archived. To import them, please unarchive them first:', archived));
  const overwritten = sortedUnique(names.filter(activeInProject));
  if (overwritten.length) warnings.push(item('The following features already exist in this project and will be overwritten:', overwritten));

  // What would change, feature by feature (archived ones are left out, as Unleash leaves them out of the import).
  const importedTags = new Map<string, Tag[]>();
  for (const t of data.featureTags ?? []) {
    const list = importedTags.get(t.featureName) ?? [];
    importedTags.set(t.featureName, list);
    const tag = tagOf(t);
    if (!list.some((x) => tagKey(x) === tagKey(tag))) list.push(tag);
  }
  const replacesTags = data.featureTags !== undefined;
  const features: ImportPlan['features'] = [];
  for (const f of dedupeBy(data.features, (x) => x.name)) {
    const existing = state.features.get(f.name);
    if (existing && (existing.archived || existing.project !== project)) continue;
    features.push(planFeature(f, existing, {
      strategies: planned.get(f.name) ?? [],
      currentStrategies: state.strategies.get(f.name) ?? [],
      environment: importedEnvironment.get(f.name),
      currentEnvironment: state.environments.get(f.name),
      tags: replacesTags ? importedTags.get(f.name) ?? [] : undefined,
      currentTags: state.tags.get(f.name) ?? [],
      dependencies: replacesDependencies ? importedDeps.get(f.name) ?? [] : undefined,
      currentDependencies: state.edges.filter((e) => e.child === f.name).map((e) => {
        const dep: FeatureDependency = { feature: e.parent, enabled: e.enabled };
        if (e.variants.length) dep.variants = e.variants;
        return dep;
      }),
    }));
  }

  // The permissions this import needs, by what it would change (Unleash asks for some of them whatever changes).
  const changes = features.map((p) => p.change);
  const required = new Set<string>(['UPDATE_FEATURE']);
  const newTagTypes = dedupeBy(data.tagTypes, (t) => t.name).filter((t) => !state.tagTypes.has(t.name));
  // A tag of a type neither existing nor in `tagTypes` is created with it (as tagging a feature directly cannot, but
  // an export always lists the types of its tags).
  for (const t of data.featureTags ?? []) {
    const type = tagOf(t).type;
    if (!state.tagTypes.has(type) && !newTagTypes.some((x) => x.name === type)) newTagTypes.push({ name: type });
  }
  if (newTagTypes.length) required.add('CREATE_TAG_TYPE');
  if (newContextFields.length) required.add('CREATE_CONTEXT_FIELD');
  if (changes.some((c) => c.strategies.removed.length)) required.add('DELETE_FEATURE_STRATEGY');
  if (changes.some((c) => c.strategies.added.length)) required.add('CREATE_FEATURE_STRATEGY');
  if (changes.some((c) => c.variants)) required.add('UPDATE_FEATURE_ENVIRONMENT_VARIANTS');
  if (changes.some((c) => c.action === 'create')) required.add('CREATE_FEATURE');
  if (changes.some((c) => c.enabled)) required.add('UPDATE_FEATURE_ENVIRONMENT');
  if (changes.some((c) => c.dependencies.added.length || c.dependencies.removed.length)) required.add('UPDATE_FEATURE_DEPENDENCY');
  const ordered = PERMISSION_ORDER.filter((p) => required.has(p));
  const missing = ordered.filter((p) => !allowed(p));
  const permissions = missing.length ? [item('We detected you are missing the following permissions:', missing.map((p) => state.permissionNames.get(p) ?? p))] : [];

  return {
    report: { errors, warnings, permissions, changes },
    required: ordered,
    newTagTypes: newTagTypes.map((t) => ({ name: t.name, description: t.description ?? null, icon: t.icon ?? null })),
    newContextFields,
    features,
  };
}

function dedupeBy<T>(list: readonly T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return list.filter((x) => (seen.has(key(x)) ? false : (seen.add(key(x)), true)));
}

function detailsOf(err: unknown): ErrorDetail[] {
  if (err instanceof DomainError && 'details' in err && Array.isArray((err as { details: unknown }).details)) return (err as unknown as { details: ErrorDetail[] }).details;
  throw err;
}
