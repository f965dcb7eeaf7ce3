import { advancedSchema, basicSchema } from '../../../domain/playground/playground.service';
import type { RouteDocs } from '../describe';
import { AdvancedPlaygroundResult, PlaygroundResult } from '../../../domain/playground/playground.shapes';

const tag = 'Playground';

export const PLAYGROUND_DOCS: RouteDocs = {
  'POST /api/admin/playground': {
    tag, summary: 'Evaluate a context against the features of an environment', deprecated: true,
    description: 'Lists every active feature of the chosen projects (`*` or left out: all) with how each strategy, constraint and segment evaluated for the context. Nothing is written. Superseded by the advanced playground.',
    body: basicSchema, responses: { 200: PlaygroundResult },
  },
  'POST /api/admin/playground/advanced': {
    tag, summary: 'Evaluate every combination of context values in several environments',
    description: 'Comma-separated values of a context field (properties included) give several values; every combination is evaluated in every environment. More than the instance’s limit of combinations (environments × features × contexts; 15,000 by default) is refused with 400. Nothing is written.',
    body: advancedSchema, responses: { 200: AdvancedPlaygroundResult },
  },
};
