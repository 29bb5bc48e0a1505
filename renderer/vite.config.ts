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

export default defineConfig({
  root,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:6680', changeOrigin: false },
    },
  },
});
