/**
 * Builds the web UI into renderer/dist, which the Hearth server serves at `/` (with an index.html
 * fallback for client-side routes). In development `vite --config renderer/vite.config.ts` serves the
 * UI with hot reload and forwards `/api` to a Hearth server on its default port, so the refresh
 * cookie stays same-origin exactly as in production.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The libraries and the side-effect-free pieces the app and the public link page share. */
const SHARED = /node_modules\/(preact|react-router|@tanstack)\/|renderer\/src\/(api\/(problem|bare-client)\.ts)$/;

/**
 * The UI is written against React's API and runs on Preact (preact/compat), which implements that
 * API in ~11 kB gzipped where react-dom takes ~60 kB: with React the Photos screen of a signed-in
 * member needed ~126 kB gzipped of script, over the 100 kB budget of issue 12 (npm run bench:bundle).
 * The libraries (react-router, @tanstack/react-query) import `react` and get compat as well. Types
 * still come from React's. Fast refresh is React's own machinery, so in `vite` dev an edit reloads the
 * page instead of patching it in place.
 */
const PREACT_FOR_REACT = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
];

export default defineConfig({
  root,
  plugins: [react({ jsxImportSource: 'preact', refreshExclude: /./ })],
  resolve: { alias: PREACT_FOR_REACT },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      output: {
        // What both the app and the public link page use goes in ONE script: left to itself the
        // split made several small shared chunks, each compressed alone, and the first screen paid
        // ~2 kB more gzipped for the same code (npm run bench:bundle).
        manualChunks: (id: string) => (SHARED.test(id) ? 'shared' : undefined),
      },
      // react-router looks for React 19's `use` and `useOptimistic` and does without them when they
      // are missing, as they are in compat: the bundler's notice that they are undefined is expected.
      onwarn(warning, warn) {
        if (warning.code === 'IMPORT_IS_UNDEFINED' && /node_modules\/react-router\//.test(warning.id ?? '')) return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:6680', changeOrigin: false },
    },
  },
});
