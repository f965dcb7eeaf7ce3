/**
 * Bucketing hash (reference §3.3). Unleash hashes with the `murmurhash3js` package (MurmurHash3 x86 32-bit), which
 * reads only the low byte of each UTF-16 code unit: "š" (U+0161) hashes like "a" (0x61). Using the same package
 * reproduces that exactly, which a UTF-8 murmur implementation would not.
 */
import { x86 } from 'murmurhash3js';

/** Seed for strategy bucketing (rollout percentages). */
export const STRATEGY_SEED = 0;
/** Seed for variant bucketing. */
export const VARIANT_SEED = 86028157;

/** `hash32(groupId + ":" + id, seed) mod normalizer + 1`: a bucket in 1..normalizer. */
export function normalizedValue(id: string, groupId: string, normalizer = 100, seed = STRATEGY_SEED): number {
  return (x86.hash32(`${groupId}:${id}`, seed) % normalizer) + 1;
}

/** The same bucket with `groupId + ":"` already joined (the compiled form keeps that prefix). */
export function bucket(prefix: string, id: string, normalizer: number, seed: number): number {
  return (x86.hash32(prefix + id, seed) % normalizer) + 1;
}

/**
 * A small deterministic random source (mulberry32): the same seed draws the same numbers, so random stickiness and
 * gradualRolloutRandom can be evaluated twice with the same draws (a change request's preview, before and after).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
