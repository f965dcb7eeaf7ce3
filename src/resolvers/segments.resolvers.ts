import type { Segment, SegmentStrategy } from '../domain/segments/segment.shapes';
import { createSchema, updateSchema } from '../domain/segments/segment.service';
import { builder } from './builder';
import { ConstraintInput, ConstraintRef } from './constraints';
import { NESTED_LIST_MULTIPLIER } from './cost';
import { defined } from './input';
import { zodInput } from './zod-input';

/** A feature strategy that uses a segment (GET /api/admin/segments/:id/strategies lists the same). */
const SegmentStrategyRef = builder.objectRef<SegmentStrategy>('SegmentStrategy').implement({
  description: 'A feature strategy that uses a segment.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Strategy id.' }),
    featureName: t.exposeString('featureName', { description: 'The feature it belongs to (archived features included).' }),
    project: t.exposeString('projectId', { description: 'The feature\'s project.' }),
    environment: t.exposeString('environment', { description: 'The environment it is in.' }),
    strategyName: t.exposeString('strategyName', { description: 'Its strategy type.' }),
  }),
});

export const SegmentRef = builder.objectRef<Segment>('Segment').implement({
  description: 'A named, reusable set of constraints that strategies can reference.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Numeric id.' }),
    name: t.exposeString('name', { description: 'Unique name, 1..100 characters.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text; null when none.' }),
    project: t.exposeString('project', { nullable: true, description: 'The project whose strategies may use it; null for a global segment.' }),
    constraints: t.field({ type: [ConstraintRef], description: 'All must hold for the segment to match.', resolve: (s) => s.constraints }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: 'Who created it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'Creation time.' }),
    usedInFeatures: t.exposeInt('usedInFeatures', { description: 'Distinct features (archived included) whose strategies use it.' }),
    usedInProjects: t.exposeInt('usedInProjects', { description: 'Distinct projects whose strategies use it.' }),
    // One query per segment: priced like a small list of its own so that asking it of every segment costs its share.
    strategies: t.field({
      type: [SegmentStrategyRef],
      complexity: { field: 5, multiplier: NESTED_LIST_MULTIPLIER },
      description: 'The feature strategies that use it, by feature, environment and sort order (one query per segment).',
      resolve: (s, _args, ctx) => ctx.services.segments.strategiesUsing(s.id),
    }),
  }),
});

builder.queryFields((t) => ({
  segments: t.field({
    type: [SegmentRef],
    description: 'Every segment, by id.',
    resolve: (_root, _args, ctx) => ctx.services.segments.list(),
  }),
  segment: t.field({
    type: SegmentRef,
    description: 'One segment; a NotFoundError when it does not exist.',
    args: { id: t.arg.int({ required: true, description: 'Segment id.' }) },
    resolve: (_root, args, ctx) => ctx.services.segments.get(args.id),
  }),
}));

const segmentFields = {
  name: 'Unique name, 1..100 characters.',
  description: 'Free text, up to 1000 characters; null for none.',
  project: 'An existing project whose strategies alone may use it; null for a global segment.',
};

const CreateSegmentInput = zodInput('CreateSegmentInput', createSchema, {
  description: 'A new segment.',
  descriptions: {
    ...segmentFields,
    project: `${segmentFields.project} Absent means global.`,
    constraints: 'Its constraints (default none).',
  },
});
const UpdateSegmentInput = zodInput('UpdateSegmentInput', updateSchema, {
  description: 'New values for a segment: the name is required; an absent optional field is kept, null clears it.',
  descriptions: {
    ...segmentFields,
    project: `${segmentFields.project} It cannot move to a project while strategies of other projects use it.`,
    constraints: 'Replaces its constraints.',
  },
  fields: (t) => ({ id: t.int({ required: true, description: 'The segment to change.' }) }),
});
const SegmentIdInput = builder.inputType('SegmentIdInput', {
  description: 'Names one segment.',
  fields: (t) => ({ id: t.int({ required: true, description: 'Segment id.' }) }),
});

/** Drops absent optional fields, in the segment and in each of its constraints (explicit nulls stay for the service to judge). */
const cleanConstraints = <T extends { constraints?: Array<Record<string, unknown>> | null }>(input: T) =>
  defined({ ...input, constraints: input.constraints?.map((c) => defined(c)) });

builder.mutationFields((t) => ({
  createSegment: t.field({
    type: SegmentRef,
    description: 'Creates a segment (permission CREATE_SEGMENT). Event segment-created.',
    args: { input: t.arg({ type: CreateSegmentInput, required: true, description: 'The segment to create.' }) },
    resolve: (_root, { input }, ctx) => ctx.services.segments.create(cleanConstraints(input) as never),
  }),
  updateSegment: t.field({
    type: SegmentRef,
    description: 'Changes a segment (permission UPDATE_SEGMENT). Event segment-updated, none when nothing changes.',
    args: { input: t.arg({ type: UpdateSegmentInput, required: true, description: 'The segment and its new values.' }) },
    resolve: (_root, { input: { id, ...rest } }, ctx) => ctx.services.segments.update(id, cleanConstraints(rest) as never),
  }),
  deleteSegment: t.boolean({
    description: 'Deletes a segment no strategy uses (permission DELETE_SEGMENT); an InvalidOperationError while strategies use it. Event segment-deleted.',
    args: { input: t.arg({ type: SegmentIdInput, required: true, description: 'The segment to delete.' }) },
    resolve: async (_root, { input }, ctx) => {
      await ctx.services.segments.remove(input.id);
      return true;
    },
  }),
}));
