/**
 * The CommonJS build: every ES module tsc wrote to dist/ is transformed on its own (no bundling, so file
 * layout, worker paths and JSON files stay as they are) into dist/cjs/, with its declarations beside it.
 * dist/cjs/package.json says "commonjs", so Node runs those files, and TypeScript reads those .d.ts files, as
 * CommonJS. `import()` stays a real dynamic import (optional packages may be ES-only); `import.meta.url`
 * becomes the file's own URL. Data files read by URL at run time (the judge's 2.3 MB lexicon.txt) are not
 * copied: the CommonJS modules read the ES build's copy, so the package carries one.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";
import { transform } from "esbuild";

const DIST = "dist";
const OUT = join(DIST, "cjs");
const IMPORT_META_URL = "__semcacheImportMetaUrl";
/** `new URL("./lexicon.txt", import.meta.url)` as esbuild writes it: a data file beside the module. */
const DATA_FILE_URL = new RegExp(`new URL\\("(\\.{1,2}/[^"]+\\.txt)", ${IMPORT_META_URL}\\)`, "g");
/** The `semcache` command is an ES module program (top-level await), never required. */
const SKIPPED = new Set([OUT, join(DIST, "cli")]);

function* files(dir: string): Iterable<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(path)) yield* files(path);
    } else yield path;
  }
}

rmSync(OUT, { recursive: true, force: true });
let modules = 0;
for (const file of files(DIST)) {
  const target = join(OUT, relative(DIST, file));
  mkdirSync(dirname(target), { recursive: true });
  if (file.endsWith(".js")) {
    const source = readFileSync(file, "utf8").replace(/^#!.*\n/, "");
    const { code } = await transform(source, {
      format: "cjs",
      platform: "node",
      target: "node20",
      sourcefile: file,
      define: { "import.meta.url": IMPORT_META_URL },
      banner: `"use strict";\nconst ${IMPORT_META_URL} = require("node:url").pathToFileURL(__filename).href;`,
    });
    // The ES build's copy of a data file, from the CommonJS twin's folder ("../../similarity/lexicon.txt").
    const esmCopy = (path: string) => relative(dirname(target), join(dirname(file), path)).split(sep).join(posix.sep);
    writeFileSync(target, code.replace(DATA_FILE_URL, (_, path: string) => `new URL(${JSON.stringify(esmCopy(path))}, ${IMPORT_META_URL})`));
    modules++;
  } else if (file.endsWith(".d.ts") || file.endsWith(".json")) {
    copyFileSync(file, target);
  }
}
writeFileSync(join(OUT, "package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
console.log(`build-cjs: ${modules} modules -> ${OUT}/`);
