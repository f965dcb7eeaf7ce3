/** Definitions (environments, context fields, segments, strategy types, tag types), and the pickers that offer them. */
export const definitionKeys = {
  all: ['definitions'] as const,
  environments: () => ['definitions', 'environments'] as const,
  contextFields: () => ['definitions', 'context-fields'] as const,
  segments: () => ['definitions', 'segments'] as const,
  segmentUses: (id: number) => ['definitions', 'segments', id, 'uses'] as const,
  segmentProjects: () => ['definitions', 'segment-projects'] as const,
  strategies: () => ['definitions', 'strategies'] as const,
  tagTypes: () => ['definitions', 'tag-types'] as const,
  /** What the constraint and strategy editors offer (context fields, segments, strategy types, a project's stickiness). */
  editors: () => ['definitions', 'editors'] as const,
  editorContextFields: () => ['definitions', 'editors', 'context-fields'] as const,
  editorSegments: () => ['definitions', 'editors', 'segments'] as const,
  editorStrategies: () => ['definitions', 'editors', 'strategies'] as const,
  /** Every project's default stickiness (what a change of context fields makes stale). */
  editorStickinessAll: () => ['definitions', 'editors', 'stickiness'] as const,
  editorStickiness: (project: string) => ['definitions', 'editors', 'stickiness', project] as const,
};
