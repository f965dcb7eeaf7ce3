/**
 * One client context resolved against a compiled snapshot (reference §3.1 and §3.4): every context field the snapshot
 * uses read once into its slot, so constraints, stickiness and overrides read values by index. Lower-cased and semver
 * forms, and the remote address as a number, are computed on first use.
 */
import type SemVer from 'semver/classes/semver';
import type { CompiledSnapshot } from './compiled';
import * as ipv4 from './ipv4';
import type { EvaluationOptions, PlaygroundContext } from './types';
import * as read from './values';

// Imported bindings copied into module constants once: some transpilers (esbuild, used by tsx) turn every access to
// an imported binding into a getter call, which is measurable in the evaluation loops.
const { parseIpv4 } = ipv4;
const { parseSemver, textOf } = read;

const NOT_PARSED = -2;
const NOT_COMPUTED = undefined;

/** One context, resolved against a snapshot's field slots. Lower-cased and semver forms are computed on first use. */
export class ResolvedContext {
  readonly values: Array<string | undefined>;
  private lowered: Array<string | undefined> | null = null;
  private semvers: Array<SemVer | null | undefined> | null = null;
  readonly userId: string | undefined;
  readonly sessionId: string | undefined;
  readonly remoteAddress: string | undefined;
  private remoteInt = NOT_PARSED;
  readonly now: number;
  readonly random: () => number;
  private readonly context: PlaygroundContext;

  constructor(snapshot: CompiledSnapshot, context: PlaygroundContext, options: EvaluationOptions | undefined) {
    this.context = context;
    const properties = context.properties !== null && typeof context.properties === 'object' ? context.properties : undefined;
    const names = snapshot.fieldNames;
    const values = new Array<string | undefined>(names.length);
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      let value: string | undefined;
      if (name === 'environment' && (!Object.hasOwn(context, 'environment') || context.environment === undefined)) {
        // The static context's environment (reference §3.1): the request's own, else "default".
        value = 'default';
      } else {
        // Own properties only: a field named `toString` or `__proto__` has a value only when the context gives one.
        value = Object.hasOwn(context, name) ? textOf(context[name]) : undefined;
        if (value === undefined && properties !== undefined && Object.hasOwn(properties, name)) value = textOf(properties[name]);
      }
      values[i] = value;
    }
    this.values = values;
    this.userId = textOf(context.userId);
    this.sessionId = textOf(context.sessionId);
    this.remoteAddress = textOf(context.remoteAddress);
    const time = context.currentTime;
    this.now = time ? (time instanceof Date ? time.getTime() : new Date(String(time)).getTime()) : (options?.now ?? Date.now)();
    this.random = options?.random ?? Math.random;
  }

  lower(slot: number): string | undefined {
    if (this.lowered === null) this.lowered = new Array(this.values.length);
    let v = this.lowered[slot];
    if (v === NOT_COMPUTED) {
      v = this.values[slot]?.toLowerCase();
      this.lowered[slot] = v;
    }
    return v;
  }

  semver(slot: number): SemVer | null {
    if (this.semvers === null) this.semvers = new Array(this.values.length);
    let v = this.semvers[slot];
    if (v === NOT_COMPUTED) {
      v = parseSemver(this.values[slot]);
      this.semvers[slot] = v;
    }
    return v;
  }

  remoteAsInt(): number {
    if (this.remoteInt === NOT_PARSED) this.remoteInt = this.remoteAddress === undefined ? -1 : parseIpv4(this.remoteAddress);
    return this.remoteInt;
  }

  /** The group id fallback of flexibleRollout without a groupId parameter. */
  featureToggle(): string {
    return (Object.hasOwn(this.context, 'featureToggle') ? textOf(this.context.featureToggle) : undefined) ?? '';
  }
}
