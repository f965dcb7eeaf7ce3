/**
 * What an event changed: its preData and data flattened to dotted paths and compared, so the event log shows the few
 * fields that moved instead of two whole documents. Arrays are compared by index.
 */
export interface JsonChange {
  path: string;
  before?: string;
  after?: string;
}

function flatten(value: unknown, prefix: string, out: Map<string, string>): void {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) {
      out.set(prefix || '(root)', Array.isArray(value) ? '[]' : '{}');
      return;
    }
    for (const [key, v] of entries) flatten(v, prefix ? `${prefix}.${key}` : key, out);
    return;
  }
  out.set(prefix || '(root)', JSON.stringify(value) ?? 'undefined');
}

export function jsonChanges(before: unknown, after: unknown): JsonChange[] {
  const a = new Map<string, string>();
  const b = new Map<string, string>();
  if (before !== null && before !== undefined) flatten(before, '', a);
  if (after !== null && after !== undefined) flatten(after, '', b);
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  const changes: JsonChange[] = [];
  for (const path of paths) {
    const was = a.get(path);
    const now = b.get(path);
    if (was === now) continue;
    changes.push({ path, ...(was === undefined ? {} : { before: was }), ...(now === undefined ? {} : { after: now }) });
  }
  return changes;
}
