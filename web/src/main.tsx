import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ApiError } from './api/errors';
import { noteFailure } from './api/outage';
import { createAppRouter } from './routes';
import { links } from './routing/links';
import { cssVariables, theme } from './theme';

/** The nonce the service put in this page's CSP (src/ui/ui.routes.ts): Mantine's `<style>` elements carry it. */
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';
// Modals lock scrolling with a <style> element of react-remove-scroll, which takes its nonce from this global (get-nonce).
(globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = nonce;

/** A request refused for want of a session (it expired, or was signed out elsewhere): to the login page, then back. */
function toLoginOnSignedOut(error: unknown) {
  if (!(error instanceof ApiError) || !error.isSignedOut) return;
  const here = `${window.location.pathname}${window.location.search}`;
  // The pages for people who are not signed in take a 401 as an answer (a used or unknown link), not as a lost session.
  if (/^\/(login|new-user|reset-password|invite)(\/|$)/.test(window.location.pathname)) return;
  queryClient.clear();
  void router.navigate(links.login(here), { replace: true });
}

/** A refusal may also say that the database is out of reach (the banner of layout/AppLayout.tsx). */
const onError = (error: unknown) => {
  noteFailure(error);
  toLoginOnSignedOut(error);
};

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      // A refusal is an answer: asking again would not change it.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: true,
    },
  },
});

const router = createAppRouter(queryClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariables} getStyleNonce={() => nonce}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
