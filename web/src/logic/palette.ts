/** One thing the command palette can jump to. */
export interface PaletteItem {
  kind: 'flag' | 'project' | 'page' | 'action';
  label: string;
  /** Shown beside the label: a flag's project, say. */
  detail?: string;
  to: string;
}

/** How well `label` matches `query` (lower-cased): 0 no match; the whole label, its start, a word's start, inside it. */
export function matchScore(label: string, query: string): number {
  const l = label.toLowerCase();
  if (!query) return 1;
  if (l === query) return 4;
  if (l.startsWith(query)) return 3;
  const at = l.indexOf(query);
  if (at < 0) return 0;
  return /[\s\-_./:]/.test(l[at - 1]) ? 2 : 1;
}

const KIND_ORDER: Record<PaletteItem['kind'], number> = { page: 0, action: 1, project: 2, flag: 3 };

/**
 * The best `limit` items for what was typed: every word must be in the label or detail; better matches of the first
 * word first, then pages and actions before projects and flags, then shorter labels, then by label.
 */
export function rankPalette(items: readonly PaletteItem[], typed: string, limit = 20): PaletteItem[] {
  const words = typed.toLowerCase().split(/\s+/).filter(Boolean);
  const scored: Array<{ item: PaletteItem; score: number }> = [];
  for (const item of items) {
    const text = `${item.label} ${item.detail ?? ''}`.toLowerCase();
    if (!words.every((w) => text.includes(w))) continue;
    scored.push({ item, score: words.length ? matchScore(item.label, words[0]) : 1 });
  }
  scored.sort((a, b) => b.score - a.score || KIND_ORDER[a.item.kind] - KIND_ORDER[b.item.kind]
    || a.item.label.length - b.item.label.length || a.item.label.localeCompare(b.item.label));
  return scored.slice(0, limit).map((s) => s.item);
}
