import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `pnpm --filter @crm/web dev` serves the app with hot reload and sends the API paths and
// the API reference (/docs, which the server serves) to a server started with `npm start`
// (port 3000).
const api = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: { proxy: { '/trpc': api, '/auth': api, '/api': api, '/docs': api } },
});
