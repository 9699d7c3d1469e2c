import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes a .br and a .gz beside every text asset of the build; the server sends them to browsers that accept
 * them (@fastify/static preCompressed), about a quarter of the bytes, with no compression work per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'tradecraft-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      for (const fileName of [...Object.keys(bundle), 'index.html']) {
        if (!/\.(js|css|html|svg|json|txt)$/.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        if (!fs.existsSync(file)) continue;
        const bytes = fs.readFileSync(file);
        if (bytes.length < 1024) continue;
        fs.writeFileSync(
          `${file}.br`,
          brotliCompressSync(bytes, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
          }),
        );
        fs.writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), 'src');
const fromSrc = (file: string) => path.join(SRC, file);
const ENTRY = fromSrc('main.tsx');
/** The sign-in screen: what it loads must stay small (bench/README.md, the sign-in route's JavaScript). */
const SIGN_IN = fromSrc('features/auth/pages/login-page.tsx');
/** The other screens before the frame: what they add to the sign-in screen stays split as the bundler likes. */
const BEFORE_SIGN_IN = ['features/auth/pages/register-page.tsx', 'features/auth/pages/choose-password-page.tsx'].map(
  fromSrc,
);
/** The signed-in frame and the trainee's everyday screens, the first a signed-in visit loads. */
const FRAME_ROOTS = [
  'app/layout/signed-in-layout.tsx',
  'features/programmes/pages/dashboard-frame.tsx',
  'features/progress/pages/dashboard-page.tsx',
  'features/scenarios/pages/scenario-picker-page.tsx',
  'features/runs/pages/simulation-page.tsx',
].map(fromSrc);

type ModuleInfo = { importedIds: readonly string[]; exports: readonly string[]; code: string | null };
type ModuleGraph = { getModuleInfo(id: string): ModuleInfo | null };

const LIBRARY = /[\\/]node_modules[\\/]/;
/** A package's index, which re-exports everything it has: only what is imported from it is followed. */
const BARREL = /[\\/]node_modules[\\/].*[\\/](index|tabler-icons-react)\.m?js$/;
const NAMED_IMPORTS = /import\s*\{([^}]*)\}\s*from\s*["'][^"'.][^"']*["']/g;

/** The names a module imports from packages (`import { Button } from '@mantine/core'`). */
function namesImported(code: string | null): Set<string> {
  const names = new Set<string>();
  for (const [, list] of (code ?? '').matchAll(NAMED_IMPORTS))
    for (const part of list!.split(',')) {
      const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!.trim();
      if (name) names.add(name);
    }
  return names;
}

/**
 * Every module a root reaches through static imports (what loading it loads). Through a package's index only the
 * modules exporting a name the importer asks for are followed, as the bundler keeps only those.
 */
function reached(graph: ModuleGraph, root: string): Set<string> {
  const seen = new Set<string>();
  const stack: { id: string; names: Set<string> }[] = [{ id: root, names: new Set() }];
  while (stack.length > 0) {
    const { id, names } = stack.pop()!;
    const info = graph.getModuleInfo(id);
    if (!info) continue;
    if (BARREL.test(id)) {
      for (const child of info.importedIds) {
        const exports = graph.getModuleInfo(child)?.exports ?? [];
        // An icon file exports its icon as its default, under its file's name.
        const fileName = path.basename(child).replace(/\.m?js$/, '');
        if (BARREL.test(child) || names.has(fileName) || exports.some((name) => names.has(name)))
          stack.push({ id: child, names });
      }
      continue;
    }
    if (seen.has(id)) continue;
    seen.add(id);
    const imported = namesImported(info.code);
    for (const child of info.importedIds) stack.push({ id: child, names: imported });
  }
  return seen;
}

/**
 * Left to itself the bundler cuts a chunk for every set of screens sharing a module: a signed-in page fetched
 * 75-90 files, most of them one icon or one Mantine component of 1-2 kB, each one more request to wait on. Here
 * the libraries the sign-in screen uses besides the entry's become one chunk ('sign-in-kit'), and the libraries
 * of the signed-in frame and the trainee's everyday screens, with the app code two of them share, another
 * ('frame-kit'); each screen's own code stays in its own chunk, and what only other screens use is split as before.
 */
function screenChunks() {
  let cache: {
    graph: ModuleGraph;
    entry: Set<string>;
    signIn: Set<string>;
    beforeSignIn: Set<string>;
    frame: Map<string, number>;
  } | null = null;
  const sets = (graph: ModuleGraph) => {
    if (cache?.graph === graph) return cache;
    // How many of the frame's roots reach each module.
    const frame = new Map<string, number>();
    for (const root of FRAME_ROOTS) for (const id of reached(graph, root)) frame.set(id, (frame.get(id) ?? 0) + 1);
    cache = {
      graph,
      entry: reached(graph, ENTRY),
      signIn: reached(graph, SIGN_IN),
      beforeSignIn: new Set(BEFORE_SIGN_IN.flatMap((root) => [...reached(graph, root)])),
      frame,
    };
    return cache;
  };
  const roots = new Set([ENTRY, SIGN_IN, ...BEFORE_SIGN_IN, ...FRAME_ROOTS]);
  return (id: string, graph: ModuleGraph): string | null => {
    const { entry, signIn, beforeSignIn, frame } = sets(graph);
    if (roots.has(id) || entry.has(id)) return null;
    const library = LIBRARY.test(id);
    if (library && signIn.has(id)) return 'sign-in-kit';
    if (signIn.has(id) || beforeSignIn.has(id)) return null;
    const reachedBy = frame.get(id) ?? 0;
    // A library any of them uses, or the app's own code two of them share.
    return (library && reachedBy > 0) || reachedBy > 1 ? 'frame-kit' : null;
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    // No source maps in the build: served beside the bundle they would hand anyone the whole source.
    sourcemap: false,
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // The shared step words and credit rules, without zod: the dashboard shows step kinds and credits,
              // and reaching them must not load the API's schemas (and zod) with them.
              name: 'shared-words',
              test: /packages[\\/]shared[\\/]src[\\/](scenarios[\\/]step-kinds|runs[\\/]credit)\.ts$/,
              priority: 4,
            },
            // The sets above already hold what their modules import (and the entry's modules must stay with it).
            { name: screenChunks(), includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
