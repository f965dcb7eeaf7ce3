// The strategy editor's pickers now live in the definitions data module; this file keeps the old import path working.
export { useProjectStickiness, useSegments, useStrategyDefinitions } from '../../data/definitions';
