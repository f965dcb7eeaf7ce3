/**
 * A flag's usage as its page shows it: per environment, when an SDK last reported it and how often it was evaluated
 * to on and off in the last hour and the last day. Plain computations over what the service reports (featureUsage
 * and Feature.metrics), unit tested in test/unit/web-selection-usage.test.ts.
 */

export interface UsageRow {
  environment: string;
  lastSeenAt: string | null;
  hour: { yes: number; no: number };
  day: { yes: number; no: number };
}

interface Counts { environment: string; yes: number; no: number }

function sums(list: readonly Counts[]): Map<string, { yes: number; no: number }> {
  const out = new Map<string, { yes: number; no: number }>();
  for (const c of list) {
    const s = out.get(c.environment) ?? { yes: 0, no: 0 };
    s.yes += c.yes;
    s.no += c.no;
    out.set(c.environment, s);
  }
  return out;
}

/**
 * One row per environment of the flag's project (in their order), then any other environment that reported it
 * (a token of an environment since removed from the project still counts).
 */
export function usageRows(environments: ReadonlyArray<{ name: string; lastSeenAt?: string | null }>, lastHour: readonly Counts[], day: readonly Counts[]): UsageRow[] {
  const hour = sums(lastHour);
  const days = sums(day);
  const names = [...environments.map((e) => e.name)];
  for (const env of [...hour.keys(), ...days.keys()]) if (!names.includes(env)) names.push(env);
  const seen = new Map(environments.map((e) => [e.name, e.lastSeenAt ?? null]));
  return names.map((environment) => ({
    environment,
    lastSeenAt: seen.get(environment) ?? null,
    hour: hour.get(environment) ?? { yes: 0, no: 0 },
    day: days.get(environment) ?? { yes: 0, no: 0 },
  }));
}

/** "75% on" of the evaluations counted; "—" when there were none. */
export function onShare(c: { yes: number; no: number }): string {
  const total = c.yes + c.no;
  return total === 0 ? '—' : `${Math.round((100 * c.yes) / total)}% on`;
}
