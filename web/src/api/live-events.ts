import { createClient, type Client } from 'graphql-sse';
import { LiveEvents } from '../data/events';
import type { EventLogEventFragment, EventStreamFilter, LiveEventsSubscription } from '../gql/graphql';

/** An audit event as the live stream and the event log query both deliver it (the `EventLogEvent` fields). */
export type LiveEvent = EventLogEventFragment;

/** What the subscriber hears: each event, and whether the stream is open ('live'), opening, or broken. */
export type LiveState = 'connecting' | 'live' | 'error';

export interface LiveHandlers {
  onEvent(event: LiveEvent): void;
  onState(state: LiveState, error?: string): void;
}

let client: Client | null = null;
// One client for the app; "distinct connections" mode opens one POST per subscription, which the session cookie
// authenticates. The JSON content type the service asks of cookie-authenticated POSTs is set by graphql-sse itself
// (`content-type: application/json; charset=utf-8`): adding our own `Content-Type` would make the browser join both
// into one unparseable value, which the service rightly refuses (403).
function sseClient(): Client {
  client ??= createClient({
    url: '/graphql',
    credentials: 'same-origin',
    // Keep trying after a break (a restart, a network drop), backing off up to 10 s; the page shows the state.
    retryAttempts: Number.MAX_SAFE_INTEGER,
    retry: (retries) => new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 500 * 2 ** retries))),
  });
  return client;
}

const RESUBSCRIBE_AFTER_MS = 3000;

/**
 * Follows `subscription { events(filter) }` until the returned function is called. A stream that ends or fails (the
 * service stopped, a refusal such as TooManyRequestsError) is reported and opened again after a pause, so the page
 * stays live without a reload.
 */
export function followEvents(filter: EventStreamFilter, handlers: LiveHandlers): () => void {
  let stopped = false;
  let dispose: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const open = () => {
    if (stopped) return;
    handlers.onState('connecting');
    dispose = sseClient().subscribe<LiveEventsSubscription>(
      { query: LiveEvents.toString(), variables: { filter } },
      {
        next: (result) => {
          if (result.errors?.length) handlers.onState('error', result.errors[0].message);
          else if (result.data?.events) handlers.onEvent(result.data.events);
        },
        error: (err) => {
          handlers.onState('error', err instanceof Error ? err.message : describe(err));
          again();
        },
        complete: () => {
          if (!stopped) again();
        },
      },
      {
        // graphql-sse retries a broken connection itself: say so while it does.
        connecting: (reconnecting) => { if (reconnecting) handlers.onState('error', 'The live connection broke; trying again.'); },
        connected: () => handlers.onState('live'),
      },
    );
  };
  const again = () => {
    dispose = null;
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(open, RESUBSCRIBE_AFTER_MS);
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    dispose?.();
  };
}

function describe(err: unknown): string {
  if (Array.isArray(err) && err[0] && typeof err[0].message === 'string') return err[0].message as string;
  if (err && typeof err === 'object' && 'message' in err) return String((err as { message: unknown }).message);
  return 'The live connection failed.';
}
