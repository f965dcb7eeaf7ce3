import { z } from 'zod';
import { completeSchema } from '../../../domain/lifecycle/lifecycle.service';
import { LifecycleStage } from '../../../domain/lifecycle/lifecycle.shapes';
import type { RouteDocs } from '../describe';

const tag = 'Lifecycle';
const L = '/api/admin/projects/:projectId/features/:featureName/lifecycle';
const STAGES = 'The stages the flag entered, in order: initial (created), pre-live (switched on outside production, or reported '
  + 'by an SDK anywhere), live (reported in a production environment), completed (marked so, kept or discarded) and archived '
  + '(while it is archived). The last one is where the flag is.';

/** Flag lifecycle (issue 44), as Unleash 6.2 serves it. */
export const LIFECYCLE_DOCS: RouteDocs = {
  [`GET ${L}`]: {
    tag, summary: 'The lifecycle stages a flag entered', description: STAGES,
    responses: { 200: z.array(LifecycleStage) },
  },
  [`POST ${L}/complete`]: {
    tag, summary: 'Mark a flag completed, kept or discarded', body: completeSchema,
    description: `Completing again changes the status, not when it was completed. Event feature-completed (when something changed). Answers the stages as GET does. ${STAGES}`,
    responses: { 200: z.array(LifecycleStage) }, errors: ['NoAccessError'],
  },
  [`POST ${L}/uncomplete`]: {
    tag, summary: 'Take back a flag’s completed stage',
    description: 'Event feature-uncompleted (when it was completed). Answers the stages as GET does.',
    responses: { 200: z.array(LifecycleStage) }, errors: ['NoAccessError'],
  },
};
