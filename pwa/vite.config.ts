import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import {
  createLogger,
  defineConfig,
  runnerImport,
  type Logger,
  type Plugin,
  type Rolldown,
} from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

const require = createRequire(import.meta.url);
/** The 4:3 country flag SVGs of `flag-icons`, served as `/flags/<alpha-2>.svg`. */
const flagsDir = path.join(
  path.dirname(require.resolve('flag-icons/package.json')),
  'flags',
  '4x3',
);

/**
 * Country flags as plain files under `/flags/`, so that `<img>` can load each one lazily and the
 * service worker can cache the ones a user has seen (runtime cache with a limit, see below),
 * instead of shipping a stylesheet that references all 270 of them.
 */
function countryFlags(): Plugin {
  return {
    name: 'skyport-country-flags',
    configureServer(server) {
      server.middlewares.use('/flags', (req, res, next) => {
        const name = (req.url ?? '').replace(/^\//, '').split('?')[0] ?? '';
        if (!/^[a-z]{2}(-[a-z]+)?\.svg$/.test(name)) return next();
        try {
          res.setHeader('Content-Type', 'image/svg+xml');
          res.end(readFileSync(path.join(flagsDir, name)));
        } catch {
          next();
        }
      });
    },
    generateBundle() {
      for (const file of readdirSync(flagsDir)) {
        if (!file.endsWith('.svg')) continue;
        this.emitFile({
          type: 'asset',
          fileName: `flags/${file}`,
          source: readFileSync(path.join(flagsDir, file)),
        });
      }
    },
  };
}

/**
 * Vite's report names every file the build writes, one line each: with the 271 flags that was
 * some 330 lines at every `npm start`. This logger folds the report into one line per folder
 * (`dist/flags/  271 files, 2000.6 kB │ gzip: 677.3 kB; largest rs.svg, 181.6 kB`) and passes every
 * other line on as it is, the warning about large chunks included.
 */
function foldedFileReport(): Logger {
  const logger = createLogger();
  // A report line, once its colours are gone: `dist/assets/name-hash.js   1.23 kB │ gzip: 0.45 kB`.
  const reportLine = /^(\S*\/)?([^\s/]+)\s+([\d,]+\.\d+) kB(?:\s+│ gzip:\s+([\d,]+\.\d+) kB)?/;
  const kB = (text: string | undefined) => Number((text ?? '0').replaceAll(',', ''));
  type Folder = { files: number; size: number; gzip: number; largest: string; largestSize: number };
  const folders = new Map<string, Folder>();
  const fold = (line: string): boolean => {
    // eslint-disable-next-line no-control-regex -- terminal colours and line erasures
    const match = reportLine.exec(line.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '').trim());
    if (!match) return false;
    const [, folder = '', file = '', size, gzip] = match;
    const entry = folders.get(folder) ?? {
      files: 0,
      size: 0,
      gzip: 0,
      largest: '',
      largestSize: 0,
    };
    entry.files += 1;
    entry.size += kB(size);
    entry.gzip += kB(gzip);
    if (kB(size) > entry.largestSize)
      Object.assign(entry, { largest: file, largestSize: kB(size) });
    folders.set(folder, entry);
    return true;
  };
  const flush = () => {
    if (folders.size === 0) return;
    const width = Math.max(...[...folders.keys()].map((folder) => folder.length));
    for (const [folder, { files, size, gzip, largest, largestSize }] of [...folders].sort()) {
      const gzipped = gzip > 0 ? ` │ gzip: ${gzip.toFixed(1)} kB` : '';
      const most = files > 1 ? `; largest ${largest}, ${largestSize.toFixed(1)} kB` : '';
      const count = `${files} file${files === 1 ? '' : 's'}`;
      logger.info(`${folder.padEnd(width)}  ${count}, ${size.toFixed(1)} kB${gzipped}${most}`);
    }
    folders.clear();
  };
  return {
    ...logger,
    get hasWarned() {
      return logger.hasWarned;
    },
    info(message, options) {
      const rest = message.split('\n').filter((line) => !fold(line));
      if (rest.join('').trim() === '' && folders.size > 0) return;
      flush();
      logger.info(rest.join('\n'), options);
    },
    warn(message, options) {
      flush();
      logger.warn(message, options);
    },
    warnOnce(message, options) {
      flush();
      logger.warnOnce(message, options);
    },
    error(message, options) {
      flush();
      logger.error(message, options);
    },
  };
}

/**
 * The guest's home page as static HTML in index.html (src/app/home-shell.tsx renders it from the
 * app at build time), so that the first paint needs no JavaScript: a phone shows the page frame,
 * the hero and the search while the app's scripts still download; then the app hydrates it.
 */
function prerenderHomeShell(): Plugin {
  const PWA_REGISTER = 'virtual:pwa-register/react';
  // The shell runs no effects: the service worker hook only needs to exist in Node.
  const pwaRegisterForNode: Plugin = {
    name: 'skyport-pwa-register-for-node',
    resolveId: (id) => (id === PWA_REGISTER ? `\0${PWA_REGISTER}` : undefined),
    load: (id) =>
      id === `\0${PWA_REGISTER}`
        ? 'export const useRegisterSW = () => ({ needRefresh: [false, () => {}], offlineReady: [false, () => {}], updateServiceWorker: async () => {} });'
        : undefined,
  };
  return {
    name: 'skyport-prerender-home-shell',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        const { module } = await runnerImport<{ renderHomeShell: () => string }>(
          path.join(import.meta.dirname, 'src/app/home-shell.tsx'),
          {
            configFile: false,
            root: import.meta.dirname,
            logLevel: 'error',
            plugins: [pwaRegisterForNode],
          },
        );
        const shell = module.renderHomeShell();
        const root = '<div id="root"></div>';
        if (!html.includes(root)) throw new Error(`index.html has no ${root} for the home shell`);
        return html.replace(root, `<div id="root" data-home-shell>${shell}</div>`);
      },
    },
  };
}

/** The chunks `files` and everything they import, statically, in the bundle. */
function importedChunks(bundle: Rolldown.OutputBundle, files: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    const chunk = bundle[file];
    if (seen.has(file) || chunk?.type !== 'chunk') return;
    seen.add(file);
    chunk.imports.forEach(visit);
  };
  files.forEach(visit);
  return [...seen];
}

/**
 * With the home page prerendered, its first paint needs only the HTML and the stylesheet. The
 * app's scripts (the entry and its preloads) start once the page is parsed and its first paint is
 * on screen (the browser's first-contentful-paint entry; the app hydrates the parsed page), so
 * that on a slow phone they never compete with it for the connection or the main thread; a tab
 * opened in the background (no frames) and a page other than the home page (nothing to paint
 * before the app) start them at once. Each request is added in a task of its own: on a
 * slow phone starting a request costs milliseconds of main thread, and together they made a long
 * task.
 */
function scriptsAfterFirstPaint(): Plugin {
  return {
    name: 'skyport-scripts-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, chunk }) {
        const entryTag = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/;
        const preloadTag = /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g;
        const entry = entryTag.exec(html)?.[1];
        if (!entry) throw new Error('index.html has no entry module script');
        // The entry's own imports, and the modules it loads in stages (src/main.tsx) with theirs.
        const preloads = [...html.matchAll(preloadTag)].map((match) => match[1]);
        if (bundle && chunk) {
          for (const file of importedChunks(bundle, chunk.dynamicImports))
            if (file !== chunk.fileName && !preloads.includes(`/${file}`))
              preloads.push(`/${file}`);
        }
        const loader = `<script>
      (function () {
        var started = false;
        function add(rel, href) {
          var element = document.createElement(rel === 'script' ? 'script' : 'link');
          element.crossOrigin = '';
          if (rel === 'script') {
            element.type = 'module';
            element.src = href;
          } else {
            element.rel = rel;
            element.href = href;
          }
          document.head.appendChild(element);
        }
        function start() {
          if (started) return;
          started = true;
          add('script', ${JSON.stringify(entry)});
          ${JSON.stringify(preloads)}.forEach(function (href) {
            setTimeout(function () { add('modulepreload', href); }, 0);
          });
        }
        function afterFirstPaint() {
          try {
            var observer = new PerformanceObserver(function (list) {
              if (!list.getEntriesByName('first-contentful-paint').length) return;
              observer.disconnect();
              setTimeout(start, 0);
            });
            observer.observe({ type: 'paint', buffered: true });
          } catch (e) {
            requestAnimationFrame(function () { requestAnimationFrame(start); });
          }
          // A page that is slow to paint still starts.
          setTimeout(start, 3000);
        }
        document.addEventListener('DOMContentLoaded', function () {
          // Elsewhere than the home page nothing is painted before the app.
          if (document.documentElement.hasAttribute('data-no-shell')) start();
          else if (document.visibilityState === 'hidden') start();
          else afterFirstPaint();
          document.addEventListener('visibilitychange', start);
        });
      })();
    </script>
  `;
        return html
          .replace(entryTag, '')
          .replace(preloadTag, '')
          .replace('</head>', `${loader}</head>`);
      },
    },
  };
}

const ONE_DAY = 24 * 60 * 60;
const FIREBASE_MODULE =
  /[\\/]node_modules[\\/](?:\.pnpm[\\/][^\\/]+[\\/]node_modules[\\/])?@?firebase[\\/]/;

export default defineConfig({
  customLogger: foldedFileReport(),
  plugins: [
    react(),
    tailwindcss(),
    countryFlags(),
    prerenderHomeShell(),
    scriptsAfterFirstPaint(),
    VitePWA({
      // A new version waits until the user accepts the update prompt (src/ui/update-prompt.tsx).
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: 'Skyport — airline tickets',
        short_name: 'Skyport',
        description: 'Browse, filter and buy airline tickets, online or offline.',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#1e3a8a',
        background_color: '#ffffff',
        categories: ['travel', 'shopping'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          {
            src: '/icons/maskable-192.png',
            sizes: '192x192',
            type: 'image/png',
            purpose: 'maskable',
          },
          {
            src: '/icons/maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
      workbox: {
        // The app shell: every built script, style and the HTML. Flags and airline logos are
        // cached at runtime instead (below), only those a user actually sees.
        globPatterns: ['**/*.{js,css,html,webmanifest}', 'favicon.svg', 'icons/*.png'],
        // Nor the Firebase SDK: Google sign-in needs the network anyway (~160 KB not to install).
        globIgnores: ['flags/**', 'logos/**', 'assets/firebase-*.js'],
        navigateFallback: '/index.html',
        // The API is never answered from the app shell: /api/* always reaches the server.
        navigateFallbackDenylist: [/^\/api(\/|$)/],
        cleanupOutdatedCaches: true,
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/flags/'),
            handler: 'CacheFirst',
            options: {
              cacheName: 'skyport-flags',
              expiration: { maxEntries: 300, maxAgeSeconds: 365 * ONE_DAY },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            // Airline logos: shipped ones under /logos/ and any image an airline points at.
            urlPattern: ({ url, request, sameOrigin }) =>
              (sameOrigin && url.pathname.startsWith('/logos/')) ||
              (!sameOrigin && request.destination === 'image'),
            handler: 'StaleWhileRevalidate',
            options: {
              cacheName: 'skyport-logos',
              expiration: { maxEntries: 200, maxAgeSeconds: 30 * ONE_DAY, purgeOnQuotaError: true },
              // 0: an opaque answer from another origin's image (no CORS) is still worth keeping.
              cacheableResponse: { statuses: [0, 200] },
            },
          },
        ],
      },
    }),
  ],
  build: {
    target: 'es2022',
    // Lets the bench read which files the home page needs (sync-server/bench/pwa.ts).
    manifest: true,
    rolldownOptions: {
      // Not the report of how long each plugin's callbacks took (vite-plugin-pwa's closeBundle,
      // Tailwind's transform): it shows whenever the machine is busy and names no fault of ours.
      checks: { bundlerTimings: false },
      output: {
        // The Firebase SDK (Google sign-in, loaded on click) under a name the precache can leave out.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => FIREBASE_MODULE.test(id))
            ? 'assets/firebase-[hash].js'
            : 'assets/[name]-[hash].js',
      },
    },
  },
  server: {
    // In development the API runs on its own port; the built app is served by the server itself.
    proxy: { '/api': 'http://localhost:8080' },
  },
});
