import { expect } from '@jest/globals';

/**
 * Writes under way while a backup is taken, and the check of what a restored copy holds: every change acknowledged
 * before the backup began, with its events, and nothing half-made (test/e2e/process/backup-restore.test.ts and
 * pg-dump-restore.test.ts).
 */
export type Call = (method: string, url: string, body?: unknown, token?: string) => Promise<{ status: number; json: any }>;

export function adminApi(port: number, adminToken: string): Call {
  return async (method, url, body, token = adminToken) => {
    const res = await fetch(`http://127.0.0.1:${port}${url}`, {
      method, headers: { Authorization: token, ...(body ? { 'Content-Type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
}

/** One flag's life, each step's acknowledgement time recorded (undefined: not acknowledged). */
export interface Flag { name: string; created?: number; strategy?: number; enabled?: number }

/** create → default strategy in development → switched on in development; stops at the first refusal. */
export async function writeFlag(call: Call, flag: Flag): Promise<void> {
  const base = '/api/admin/projects/default/features';
  if ((await call('POST', base, { name: flag.name })).status !== 201) return;
  flag.created = Date.now();
  if ((await call('POST', `${base}/${flag.name}/environments/development/strategies`, { name: 'default' })).status !== 200) return;
  flag.strategy = Date.now();
  if ((await call('POST', `${base}/${flag.name}/environments/development/on`)).status !== 200) return;
  flag.enabled = Date.now();
}

/** `writers` clients writing flags named `<prefix>-<n>` one after the other until `stop()`. */
export function startWriters(call: Call, writers: number, prefix: string): { flags: Flag[]; stop(): Promise<void> } {
  const flags: Flag[] = [];
  let stopped = false;
  let n = 0;
  const running = Array.from({ length: writers }, async () => {
    while (!stopped) {
      const flag: Flag = { name: `${prefix}-${n++}` };
      flags.push(flag);
      await writeFlag(call, flag);
    }
  });
  return { flags, stop: async () => { stopped = true; await Promise.all(running); } };
}

/** What a service holds: the default project's flags by name, and every event as `<type> <flag>`. */
export async function holdings(call: Call): Promise<{ features: Map<string, any>; events: Set<string> }> {
  const { json: listed } = await call('GET', '/api/admin/projects/default/features');
  const features = new Map<string, any>(listed.features.map((f: any) => [f.name, f]));
  const events = new Set<string>();
  for (let offset = 0; ; offset += 1000) {
    const { json: page } = await call('GET', `/api/admin/events?limit=1000&offset=${offset}`);
    for (const e of page.events) events.add(`${e.type} ${e.featureName}`);
    if (page.events.length < 1000) break;
  }
  return { features, events };
}

/**
 * Every step of `flags` acknowledged before `began` is in `held` with its event; every flag held has its creation
 * event, and every one switched on its switching event (nothing half-made). Returns how many flags were checked.
 */
export function expectAcknowledgedKept(flags: readonly Flag[], began: number, held: { features: Map<string, any>; events: Set<string> }): number {
  const development = (feature: any) => feature.environments.find((e: any) => e.name === 'development');
  const acknowledged = flags.filter((f) => f.created !== undefined && f.created < began);
  for (const flag of acknowledged) {
    const feature = held.features.get(flag.name);
    expect(feature).toBeDefined();
    expect(held.events.has(`feature-created ${flag.name}`)).toBe(true);
    if (flag.strategy! < began) {
      expect(development(feature).hasStrategies).toBe(true);
      expect(held.events.has(`feature-strategy-add ${flag.name}`)).toBe(true);
    }
    if (flag.enabled! < began) {
      expect(development(feature).enabled).toBe(true);
      expect(held.events.has(`feature-environment-enabled ${flag.name}`)).toBe(true);
    }
  }
  for (const [name, feature] of held.features) {
    expect(held.events.has(`feature-created ${name}`)).toBe(true);
    if (development(feature).enabled) expect(held.events.has(`feature-environment-enabled ${name}`)).toBe(true);
  }
  return acknowledged.length;
}
