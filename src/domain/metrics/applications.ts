/** Applications and their instances as stored (migration 0016) and as both doors return them (Unleash's shapes). */

export interface ApplicationRow {
  app_name: string;
  description: string | null;
  url: string | null;
  color: string | null;
  icon: string | null;
  strategies: string[] | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  seen_at: Date | null;
}

export const APPLICATION_COLUMNS = 'app_name, description, url, color, icon, strategies, created_by, created_at, updated_at, seen_at';

/** Which projects an application's instances read, and in which environments (from their tokens; `*`: every project). */
export interface ApplicationUsage {
  project: string;
  environments: string[];
}

/** An application in the list (`GET /api/admin/metrics/applications`). */
export interface Application {
  appName: string;
  description: string | null;
  url: string | null;
  color: string | null;
  icon: string | null;
  strategies: string[];
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  /** The last report (registration or metrics) of any of its instances. */
  lastSeen: string | null;
  usage: ApplicationUsage[];
}

/** One running SDK of an application. */
export interface ApplicationInstance {
  appName: string;
  instanceId: string;
  environment: string;
  sdkVersion: string | null;
  clientIp: string | null;
  /** When the SDK started and how often it reports metrics (ms), from its registration. */
  started: string | null;
  interval: number | null;
  createdAt: string;
  lastSeen: string;
}

export interface InstanceRow {
  app_name: string;
  instance_id: string;
  environment: string;
  sdk_version: string | null;
  client_ip: string | null;
  started_at: Date | null;
  interval_ms: string | number | null;
  created_at: Date;
  seen_at: Date;
}

export const INSTANCE_COLUMNS = 'app_name, instance_id, environment, sdk_version, client_ip, started_at, interval_ms, created_at, seen_at';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function toApplication(r: ApplicationRow, usage: ApplicationUsage[] = []): Application {
  return {
    appName: r.app_name,
    description: r.description,
    url: r.url,
    color: r.color,
    icon: r.icon,
    strategies: r.strategies ?? [],
    createdAt: iso(r.created_at) as string,
    updatedAt: iso(r.updated_at) as string,
    createdBy: r.created_by,
    lastSeen: iso(r.seen_at),
    usage,
  };
}

export function toInstance(r: InstanceRow): ApplicationInstance {
  return {
    appName: r.app_name,
    instanceId: r.instance_id,
    environment: r.environment,
    sdkVersion: r.sdk_version,
    clientIp: r.client_ip,
    started: iso(r.started_at),
    interval: r.interval_ms === null ? null : Number(r.interval_ms),
    createdAt: iso(r.created_at) as string,
    lastSeen: iso(r.seen_at) as string,
  };
}

/** The `data` of an `application-created` event: the application as it was created. */
export function applicationCreatedData(r: ApplicationRow) {
  const { usage: _usage, lastSeen: _lastSeen, ...rest } = toApplication(r);
  return rest;
}
