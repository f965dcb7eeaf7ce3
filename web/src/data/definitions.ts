/**
 * The definitions' documents and hooks (environments, context fields, segments, strategy types, tag types), one file
 * per kind under `definitions/`, and the pickers the flag editors offer them in (`definitions/editors.ts`). Operation
 * names start with "Definitions" (unique across the app); the pickers' keep the names they had.
 */
export * from './definitions/context-fields';
export * from './definitions/editors';
export * from './definitions/environments';
export * from './definitions/segments';
export * from './definitions/strategies';
export * from './definitions/tag-types';
