/**
 * `compile(features, segments)`: turns one snapshot (the features of one environment and all segments) into a form
 * that evaluation only reads (compiled.ts): strategies sorted, segment ids resolved (unknown ids dropped), constraint
 * values cleaned into Sets or lists (lower-cased copies for caseInsensitive), numbers, dates and semvers parsed once,
 * REGEX patterns compiled once (RE2, one per distinct pattern, reused by later snapshots), `userIds` and `IPs` split,
 * variant weights summed, override values in Sets, dependencies resolved to indexes, and the variant objects the fast
 * path returns built once and frozen. Output fragments only the detailed result needs (constraints with their result,
 * parameters, variant lists, links) are built and frozen on first use, then shared; the snapshot keeps references to
 * its input, which must not be changed afterwards. Context field names are numbered into slots, so a context is
 * resolved once per evaluation call and a constraint reads its value by index.
 *
 * Each part is compiled by the module of its subject: constraints in operators.ts, strategies in strategies.ts,
 * variants in variants.ts; this one numbers the slots, holds the snapshot's patterns and puts the features together.
 */
import type { RE2JS } from 're2js';
import {
  DISABLED_VARIANT, EMPTY, K_UNKNOWN, frozen,
  type CompiledFeature, type CompiledSegment, type CompiledSnapshot, type SnapshotCompiler,
} from './compiled';
import { cachedRegex, compileConstraints } from './operators';
import { compileStrategy } from './strategies';
import type { PlaygroundFeatureInput, PlaygroundSegmentInput } from './types';
import { compileVariants } from './variants';

class Compiler implements SnapshotCompiler {
  readonly slots = new Map<string, number>();
  readonly fieldNames: string[] = [];
  /** This snapshot's REGEX patterns, by flag and pattern: each distinct one is looked up (or compiled) once. */
  private readonly regexes = new Map<string, RE2JS | null>();

  slot(name: string): number {
    let slot = this.slots.get(name);
    if (slot === undefined) {
      slot = this.fieldNames.length;
      this.fieldNames.push(name);
      this.slots.set(name, slot);
    }
    return slot;
  }

  regex(pattern: unknown, caseInsensitive: boolean): RE2JS | null {
    if (typeof pattern !== 'string') return null;
    const key = `${caseInsensitive ? 'i' : '-'}${pattern}`;
    let re = this.regexes.get(key);
    if (re === undefined) {
      re = cachedRegex(key, pattern, caseInsensitive);
      this.regexes.set(key, re);
    }
    return re;
  }
}

/** Compiles one snapshot: the features of one environment (in the order results are wanted) and all segments. */
export function compile(features: readonly PlaygroundFeatureInput[], segments: readonly PlaygroundSegmentInput[]): CompiledSnapshot {
  const compiler = new Compiler();
  const compiledSegments = new Map<number, CompiledSegment>();
  for (const s of segments) compiledSegments.set(s.id, { id: s.id, name: s.name, constraints: compileConstraints(s.constraints, compiler) });

  const compiled: CompiledFeature[] = features.map((f, index) => {
    const sorted = [...(f.strategies ?? EMPTY)].sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0));
    const strategies = sorted.map((s) => compileStrategy(s, f, compiledSegments, compiler));
    const variants = compileVariants(f.variants, f.name, f.name, 'default', compiler);
    return {
      index,
      name: f.name,
      project: f.project,
      enabled: f.enabled === true,
      strategies,
      active: strategies.filter((s) => !s.disabled && s.kind !== K_UNKNOWN),
      variants,
      dependencies: [],
      impressionData: f.impressionData === true,
      off: frozen({ name: f.name, isEnabled: false, variant: DISABLED_VARIANT }),
      onWithoutVariant: frozen({ name: f.name, isEnabled: true, variant: DISABLED_VARIANT }),
    };
  });

  const byName = new Map<string, CompiledFeature>();
  for (const f of compiled) if (!byName.has(f.name)) byName.set(f.name, f);
  let hasDependencies = false;
  features.forEach((f, i) => {
    const deps = f.dependencies ?? EMPTY;
    if (deps.length > 0) hasDependencies = true;
    compiled[i].dependencies = deps.map((d) => {
      const parent = byName.get(d.feature);
      // A parent outside the snapshot, or one that itself has dependencies, never satisfies (reference §3.6).
      const usable = parent !== undefined && (features[parent.index].dependencies ?? EMPTY).length === 0;
      return {
        parent: usable ? parent.index : -1,
        parentEnabled: usable ? parent.enabled : false,
        enabled: d.enabled !== false,
        variants: d.enabled !== false && d.variants && d.variants.length > 0 ? new Set(d.variants) : null,
      };
    });
  });

  return { features: compiled, byName, fieldNames: compiler.fieldNames, hasDependencies };
}
