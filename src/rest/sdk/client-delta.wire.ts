import type { DeltaEncoding, DeltaEvent, HydrationEvent } from '../../domain/client-features/client-delta';

/**
 * The wire form of the client API's deltas (issue 32; which events a client is sent is
 * src/domain/client-features/client-delta.ts): a body `{"events":[…]}`, each event one JSON object. Flags and segments
 * are held and sent as their JSON text (`DELTA_JSON`), so a flag is serialized once per change, and an event's text is
 * built around it without serializing it again; `eventId`s are revisions (bigints), written as JSON numbers.
 */

/** Flags and segments as the JSON text clients are sent (the delta form: segments apart, so a flag as read). */
export const DELTA_JSON: DeltaEncoding<string> = {
  feature: (feature) => JSON.stringify(feature),
  segment: (segment) => JSON.stringify(segment),
};

function eventJson(e: DeltaEvent<string>): string {
  switch (e.type) {
    case 'feature-updated': return `{"eventId":${e.eventId},"type":"feature-updated","feature":${e.feature}}`;
    case 'feature-removed': return `{"eventId":${e.eventId},"type":"feature-removed","featureName":${JSON.stringify(e.featureName)},"project":${JSON.stringify(e.project)}}`;
    case 'segment-updated': return `{"eventId":${e.eventId},"type":"segment-updated","segment":${e.segment}}`;
    case 'segment-removed': return `{"eventId":${e.eventId},"type":"segment-removed","segmentId":${e.segmentId}}`;
  }
}

/** A delta body from events (in order); `undefined` when there are none (a change the client cannot see). */
export function deltaBody(events: readonly DeltaEvent<string>[]): string | undefined {
  if (events.length === 0) return undefined;
  return `{"events":[${events.map(eventJson).join(',')}]}`;
}

/** A delta body of one `hydration` event: the whole state of a scope at `revision` (features and segments as JSON arrays). */
export function hydrationJson(revision: bigint | string, featuresJson: string, segmentsJson: string): string {
  return `{"events":[{"eventId":${revision},"type":"hydration","features":${featuresJson},"segments":${segmentsJson}}]}`;
}

/** The body of one `hydration` event. */
export function hydrationBody(event: HydrationEvent<string>): string {
  return hydrationJson(event.eventId, `[${event.features.join(',')}]`, `[${event.segments.join(',')}]`);
}
