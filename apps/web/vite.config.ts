import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

/** LOOPDESK_VERSION when set; otherwise the package version plus the short git sha if any. */
function appVersion(): string {
  const fromEnv = process.env.LOOPDESK_VERSION?.trim();
  if (fromEnv) {
    return fromEnv;
  }
  const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: webRoot,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
    return sha ? `${pkg.version}+${sha}` : pkg.version;
  } catch {
    return pkg.version;
  }
}

const server = 'http://localhost:8080';
const proxied: Record<string, ProxyOptions> = Object.fromEntries(
  ['/auth', '/internal', '/oidc', '/portal-config', '/api', '/docs', '/healthz'].map((prefix) => [
    prefix,
    { target: server },
  ]),
);

const proxy: Record<string, ProxyOptions> = { ...proxied, '/ws': { target: server, ws: true } };

export default defineConfig({
  root: webRoot,
  plugins: [react()],
  define: {
    __APP_VERSION__: JSON.stringify(appVersion()),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  server: { proxy },
  preview: { proxy },
});
