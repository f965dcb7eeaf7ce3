import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/client';
import { graphql } from '../../gql';
import type { DefinitionsSegmentsQuery } from '../../gql/graphql';
import { definitionKeys } from '../keys';
import { useAppMutation } from '../mutation';
import { useInputMutation } from './input-mutation';

const SegmentsQuery = graphql(`
  query DefinitionsSegments {
    segments {
      id name description project usedInFeatures usedInProjects
      constraints { contextName operator values value caseInsensitive inverted }
    }
  }
`);
const SegmentStrategies = graphql(`
  query DefinitionsSegmentStrategies($id: Int!) {
    segment(id: $id) { id strategies { featureName project environment } }
  }
`);
const SegmentProjects = graphql(`query DefinitionsSegmentProjects { projects { id name } }`);
const CreateSegment = graphql(`
  mutation DefinitionsCreateSegment($input: CreateSegmentInput!) { createSegment(input: $input) { id } }
`);
const UpdateSegment = graphql(`
  mutation DefinitionsUpdateSegment($input: UpdateSegmentInput!) { updateSegment(input: $input) { id } }
`);
const DeleteSegment = graphql(`mutation DefinitionsDeleteSegment($input: SegmentIdInput!) { deleteSegment(input: $input) }`);

export type Segment = DefinitionsSegmentsQuery['segments'][number];

/** What a change of segments makes stale: their page (where each is used, too) and the strategy editor's picker. */
const segmentsStale = () => [definitionKeys.segments(), definitionKeys.editorSegments()];

/** The segments page's list (with constraints and use); the strategy editor uses `useSegments`. */
export const useSegmentList = () => useQuery({ queryKey: definitionKeys.segments(), queryFn: () => gql(SegmentsQuery) });

/** The strategies that use a segment (read when its row is opened). */
export const useSegmentUses = (id: number) => useQuery({
  queryKey: definitionKeys.segmentUses(id),
  queryFn: async () => (await gql(SegmentStrategies, { id })).segment.strategies,
});

/** The projects a segment can be limited to. */
export const useSegmentProjects = () => useQuery({
  queryKey: definitionKeys.segmentProjects(),
  queryFn: async () => (await gql(SegmentProjects)).projects,
  staleTime: 60_000,
});

export const useCreateSegment = () => useInputMutation(CreateSegment, segmentsStale());

export const useUpdateSegment = () => useInputMutation(UpdateSegment, segmentsStale());

/** Deletes a segment; the variables are the row the page asked about (its confirmation reads more of it). */
export const useDeleteSegment = <S extends { id: number; name: string } = { id: number; name: string }>() => useAppMutation({
  mutationFn: (s: S) => gql(DeleteSegment, { input: { id: s.id } }),
  invalidates: segmentsStale(),
  done: (_r, s) => `Segment ${s.name} deleted.`,
});
