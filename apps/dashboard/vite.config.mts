// Builds the console into dist/dashboard, served by the gateway at /dashboard/ (apps/gateway
// src/console). `vite --config apps/dashboard/vite.config.ts` serves it with hot reload on
// http://127.0.0.1:5173/dashboard/ and passes /dashboard/api to the gateway of `npm start`.
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const gateway = 'http://127.0.0.1:3000';

export default defineConfig({
  root: here,
  base: '/dashboard/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    // Each file's name carries its content's hash, so the gateway lets browsers keep them for a year.
    assetsDir: 'assets',
    // The libraries change less often than the console: their chunks stay cached across releases.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'mantine', test: /node_modules[\\/]@mantine[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true, proxy: { '/dashboard/api': gateway } },
  preview: { host: '127.0.0.1', port: 4173 },
});
