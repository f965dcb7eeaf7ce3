// Change requests as the UI reasons about them: which request is the user's draft, which moves a user may offer, and
// each proposed change described as a readable diff against the flag as it is now. Plain computations, unit tested in
// test/unit/web-change-requests.test.ts.
import { constraintSentence, strategyHeading, strategyLabel, type ConstraintLike } from './flag-summary';
import { jsonChanges, type JsonChange } from './json-diff';

/** States in which a request is still open (the service's list). */
export const OPEN_STATES: readonly string[] = ['Draft', 'In review', 'Approved', 'Scheduled'];
export const isOpen = (state: string): boolean => OPEN_STATES.includes(state);

interface Counted {
  features: ReadonlyArray<{ changes: readonly unknown[] }>;
  segments: ReadonlyArray<{ changes: readonly unknown[] }>;
}

/** How many changes a request holds, feature and segment changes together. */
export function countChanges(request: Counted): number {
  return [...request.features, ...request.segments].reduce((n, f) => n + f.changes.length, 0);
}

/**
 * The caller's Draft for an environment among a project's requests. The service keeps one Draft per author and
 * environment, and says which requests are the caller's (`createdByMe`, by user id: two people may share a name).
 */
export function findDraft<T extends { state: string; environment: string; createdByMe: boolean }>(requests: readonly T[], environment: string): T | undefined {
  return requests.find((r) => r.state === 'Draft' && r.environment === environment && r.createdByMe);
}

/** A request as a heading or link names it: its title, with its number in front unless the (default) title has it. */
export const requestLabel = (id: number, title: string): string => (title.includes(`#${id}`) ? title : `#${id} ${title}`);

/** The buttons of a request's page, by the names the tests and users know them by, and the state each asks for. */
export const ACTIONS = {
  'Send to review': 'In review',
  Approve: 'Approved',
  Reject: 'Rejected',
  Apply: 'Applied',
  Schedule: 'Scheduled',
  'Cancel request': 'Cancelled',
} as const;
export type RequestAction = keyof typeof ACTIONS;

export interface ActionContext {
  state: string;
  /** The signed-in user wrote the request. */
  isAuthor: boolean;
  /** APPROVE_CHANGE_REQUEST in the request's environment. */
  canApprove: boolean;
  /** APPLY_CHANGE_REQUEST in the request's environment. */
  canApply: boolean;
  /** The user already approved or rejected it. */
  reviewed: boolean;
}

/**
 * The moves the service would accept from this user now (its transitions and who may make each): offering only
 * those keeps the page honest, and the service still decides (its refusal is shown next to the button).
 */
export function availableActions({ state, isAuthor, canApprove, canApply, reviewed }: ActionContext): RequestAction[] {
  const out: RequestAction[] = [];
  const reviewer = canApprove && !isAuthor;
  if (state === 'Draft' && isAuthor) out.push('Send to review');
  if (state === 'In review' && reviewer && !reviewed) out.push('Approve');
  if ((state === 'In review' || state === 'Approved') && reviewer && !reviewed) out.push('Reject');
  if ((state === 'Approved' || state === 'Scheduled') && canApply) out.push('Apply', 'Schedule');
  if (isOpen(state) && (isAuthor || canApply)) out.push('Cancel request');
  return out;
}

// ---- Diffs ----

export interface StrategyLike {
  id: string;
  name: string;
  title?: string | null;
  disabled?: boolean | null;
  sortOrder?: number | null;
  parameters?: unknown;
  constraints?: readonly ConstraintLike[] | null;
  segmentIds?: readonly number[] | null;
  segments?: unknown;
  variants?: ReadonlyArray<{ name: string; weight: number; weightType?: string; stickiness?: string; payload?: { type: string; value: string } | null }> | null;
}
export interface VariantLike {
  name: string;
  weight: number;
  weightType?: string | null;
  stickiness?: string | null;
  payload?: { type: string; value: string } | null;
  overrides?: ReadonlyArray<{ contextName: string; values: readonly string[] }> | null;
}
/** A flag's configuration in the request's environment now (null: the flag is gone or not read yet). */
export interface CurrentEnvironment {
  enabled: boolean;
  strategies: readonly StrategyLike[];
  variants: readonly VariantLike[];
}

export interface DescribedChange {
  /** One line: what the change does, in words. */
  summary: string;
  /** The fields that move, before and after (values as JSON text). */
  rows: JsonChange[];
  /** Reordering: the strategies' headings before and after. */
  order?: { before: string[]; after: string[] };
}

const record = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const segmentsOf = (s: Record<string, unknown>): number[] => {
  const ids = s.segmentIds ?? s.segments;
  return Array.isArray(ids) ? ids.map((x) => (typeof x === 'number' ? x : Number(record(x).id))).filter((n) => !Number.isNaN(n)) : [];
};

/**
 * A strategy in the shape a reader compares: its type's name, parameters by name, each constraint as a sentence,
 * segment ids and variants by name. Order and id are left out (a reorder is its own change).
 */
export function readableStrategy(strategy: unknown): Record<string, unknown> {
  const s = record(strategy);
  const name = String(s.name ?? '');
  const constraints = Array.isArray(s.constraints) ? (s.constraints as ConstraintLike[]).map((c) => constraintSentence(c)) : [];
  const variants = Array.isArray(s.variants) ? Object.fromEntries((s.variants as VariantLike[]).map((v) => [v.name, variantText(v)])) : {};
  return {
    type: strategyLabel(name),
    title: s.title ?? null,
    disabled: s.disabled === true,
    parameters: record(s.parameters),
    constraints,
    segments: segmentsOf(s),
    variants,
  };
}

function variantText(v: VariantLike): string {
  const parts = [`${v.weight / 10}%${v.weightType === 'fix' ? ' fixed' : ''}`];
  if (v.stickiness && v.stickiness !== 'default') parts.push(`stickiness ${v.stickiness}`);
  if (v.payload) parts.push(`${v.payload.type} ${v.payload.value}`);
  for (const o of v.overrides ?? []) parts.push(`${o.contextName} in ${o.values.join(', ')}`);
  return parts.join(' · ');
}

/** Variants keyed by name (a weight that moved shows as one row per variant, not a shifted list). */
export const readableVariants = (variants: readonly VariantLike[]): Record<string, string> =>
  Object.fromEntries(variants.map((v) => [v.name, variantText(v)]));

const headingOf = (s: unknown): string => {
  const r = record(s);
  return strategyHeading({ name: String(r.name ?? 'strategy'), title: (r.title as string | null | undefined) ?? null });
};

/**
 * One change of a request against the flag as it is now in the request's environment. A change naming a strategy
 * that is no longer there is described from its own payload (the service marks it as a conflict).
 */
export function describeChange(change: { action: string; payload: unknown }, current: CurrentEnvironment | null, environment: string): DescribedChange {
  const p = record(change.payload);
  const strategies = current?.strategies ?? [];
  const byId = (id: unknown) => strategies.find((s) => s.id === id);
  switch (change.action) {
    case 'updateEnabled': {
      const on = p.enabled === true;
      return {
        summary: `${on ? 'Switch on' : 'Switch off'} in ${environment}`,
        rows: current && current.enabled === on ? [] : [{ path: 'enabled', ...(current ? { before: String(current.enabled) } : {}), after: String(on) }],
      };
    }
    case 'addStrategy':
      return { summary: `Add strategy “${headingOf(p)}”`, rows: jsonChanges(undefined, readableStrategy(p)) };
    case 'updateStrategy': {
      const was = byId(p.id);
      // The payload may carry only some fields: what it leaves out stays as it is.
      const now = { ...(was ?? {}), ...p };
      return { summary: `Change strategy “${headingOf(was ?? p)}”`, rows: jsonChanges(was ? readableStrategy(was) : undefined, readableStrategy(now)) };
    }
    case 'deleteStrategy': {
      const was = byId(p.id);
      return { summary: `Delete strategy “${was ? headingOf(was) : String(p.id)}”`, rows: was ? jsonChanges(readableStrategy(was), undefined) : [] };
    }
    case 'reorderStrategy': {
      const order = Array.isArray(change.payload) ? (change.payload as Array<{ id: string; sortOrder: number }>) : [];
      const before = [...strategies].sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0));
      const sortOf = new Map(order.map((o) => [o.id, o.sortOrder]));
      const after = [...before].sort((a, b) => (sortOf.get(a.id) ?? a.sortOrder ?? 0) - (sortOf.get(b.id) ?? b.sortOrder ?? 0));
      return { summary: 'Reorder strategies', rows: [], order: { before: before.map(headingOf), after: after.map(headingOf) } };
    }
    case 'patchVariant': {
      const next = Array.isArray(p.variants) ? (p.variants as VariantLike[]) : [];
      return { summary: `Set the variants in ${environment}`, rows: jsonChanges(readableVariants(current?.variants ?? []), readableVariants(next)) };
    }
    case 'archiveFeature':
      return { summary: 'Archive the flag', rows: [] };
    case 'addDependency':
      return {
        summary: `Depend on ${String(p.feature)}${p.enabled === false ? ' being off' : ''}${Array.isArray(p.variants) && p.variants.length ? ` with variant ${p.variants.join(' or ')}` : ''}`,
        rows: [],
      };
    case 'deleteDependency':
      return { summary: 'Remove the dependencies', rows: [] };
    case 'updateSegment':
      return { summary: `Change segment ${String(p.name ?? p.id)}`, rows: jsonChanges(undefined, { ...p, constraints: Array.isArray(p.constraints) ? (p.constraints as ConstraintLike[]).map((c) => constraintSentence(c)) : [] }) };
    case 'deleteSegment':
      return { summary: `Delete segment ${String(p.id)}`, rows: [] };
    default:
      return { summary: change.action, rows: jsonChanges(undefined, change.payload) };
  }
}

// ---- Changes the flag page proposes ----

/** An object without its null and undefined fields (the service's change shapes take absent, not null, values). */
function present<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

/** The change payload of a strategy as the flag page holds it (what updateStrategy with the same values would send). */
export function strategyPayload(s: StrategyLike): Record<string, unknown> {
  return {
    name: s.name,
    title: s.title ?? null,
    disabled: s.disabled ?? false,
    parameters: record(s.parameters),
    constraints: (s.constraints ?? []).map((c) => present({ ...c })),
    segments: [...(s.segmentIds ?? [])],
    variants: (s.variants ?? []).map((v) => present({ ...v })),
  };
}

// ---- Scheduling ----

/** The browser's time zone, as a user reads it next to the date-time picker ("Europe/Berlin, UTC+01:00"). */
export function timeZoneLabel(at: Date = new Date(), zone = Intl.DateTimeFormat().resolvedOptions().timeZone): string {
  const minutes = -at.getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const offset = `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return zone ? `${zone}, ${offset}` : offset;
}

/**
 * The picker's local "YYYY-MM-DD HH:mm(:ss)" as the ISO instant the service takes, or an error in words: a time must
 * be given and lie in the future.
 */
export function scheduleInstant(picked: string | null | undefined, now: Date = new Date()): { iso: string } | { error: string } {
  if (!picked) return { error: 'Choose a date and time.' };
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(picked.trim());
  if (!m) return { error: 'Not a date and time.' };
  const [, y, mo, d, h, mi, s] = m;
  const at = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  if (Number.isNaN(at.getTime())) return { error: 'Not a date and time.' };
  if (at.getTime() <= now.getTime()) return { error: 'The time must be in the future.' };
  return { iso: at.toISOString() };
}
