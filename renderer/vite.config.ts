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
const SHARED = /node_modules\/(react|react-dom|scheduler|react-router|@tanstack)\/|renderer\/src\/(api\/(problem|bare-client)\.ts)$/;

export default defineConfig({
  root,
  plugins: [react()],
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
    },
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:6680', changeOrigin: false },
    },
  },
});
