import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The web UI (design §10): built into dist/web, which src/ui/ui.routes.ts serves at `/`. Every file but index.html goes
// to assets/ under a hashed name (cached for a year); pages are split by route (React.lazy in src/routes.tsx).
export default defineConfig({
  root: __dirname,
  base: '/',
  plugins: [react()],
  build: {
    outDir: path.resolve(__dirname, '../dist/web'),
    emptyOutDir: true,
    assetsDir: 'assets',
    // No inline script or data: URL in the page: the CSP allows only this service's files.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      output: {
        // React and the router change rarely: one long-cached chunk. Mantine's components split with the pages that use
        // them, so the first route carries only what it shows.
        // Chunks under 20 kB are merged into others loaded in the same places: a page opened without the HTTP cache
        // fetched some forty, six at a time over HTTP/1.1.
        experimentalMinChunkSize: 20_000,
        manualChunks: (id) => (/node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/.test(id) ? 'react' : undefined),
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:4242', '/auth': 'http://127.0.0.1:4242', '/graphql': 'http://127.0.0.1:4242', '/invite': { target: 'http://127.0.0.1:4242', bypass: (req) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined) } } },
});
