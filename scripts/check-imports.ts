/**
 * The layering rule of src/ (docs/architecture.md), run by `npm run lint`: no import cycle between files, type-only
 * imports included, and no import from a higher layer. The kernel's edges to the components it still takes its
 * defaults and contract types from, and the components' edges to other kinds, are listed in KNOWN below: they
 * are the next step of issue #21 and may only shrink (an edge listed here that no longer exists fails too, so the
 * list stays true).
 *   npx tsx scripts/check-imports.ts
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

/**
 * Layers from the bottom: the kernel, the components (one folder per kind), then the presets and the surfaces on
 * top, then the root entry. A file may import its own layer and those below; a component only the kernel and its
 * own kind.
 */
const LAYERS: Readonly<Record<string, number>> = {
  core: 0,
  embeddings: 1,
  similarity: 1,
  stores: 1,
  processors: 1,
  manager: 1,
  presets: 3,
  config: 3,
  langchain: 3,
  agents: 3,
  adapters: 3,
  server: 3,
  cli: 3,
  testing: 3,
  "index.ts": 4,
};

/**
 * Folder edges that break the target (the kernel imports no component; a component imports the kernel and its own
 * kind only), kept until they are removed: "from -> to".
 */
const KNOWN = new Set([
  // The Cache's default components (a new Cache() works with no arguments) and its DataManager type: core/cache.ts.
  "core -> embeddings",
  "core -> manager",
  "core -> processors",
  "core -> similarity",
  // Components that use another kind: evaluations embed pairs, stores read eviction policies, processors judge.
  "similarity -> embeddings",
  "similarity -> processors",
  "processors -> embeddings",
  "processors -> similarity",
  "stores -> manager",
  "manager -> stores",
]);

function* sourceFiles(dir: string): Iterable<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) yield path;
  }
}

/** The files a file imports or re-exports from, by relative specifier (type-only ones included). */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, false);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => resolve(dirname(file), name.replace(/\.js$/, ".ts")))
    .map((path) => (known.has(path) ? path : join(path, "index.ts")))
    .filter((path) => known.has(path));
}

const layerName = (file: string) => relative(SRC, file).split("/")[0];

/** Every cycle's files (strongly connected components of more than one file, or a file importing itself). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

const files = new Set(sourceFiles(SRC));
const graph = new Map([...files].map((file) => [file, importsOf(file, files)]));
const problems: string[] = [];
const seen = new Set<string>();
const COMPONENTS = 1;
for (const [file, imported] of graph) {
  const from = layerName(file);
  for (const target of imported) {
    const to = layerName(target);
    if (from === to) continue;
    const edge = `${from} -> ${to}`;
    seen.add(edge);
    const where = `${relative(SRC, file)} imports ${relative(SRC, target)}`;
    if (LAYERS[from] === undefined || LAYERS[to] === undefined) problems.push(`${where}: the folder ${LAYERS[from] === undefined ? from : to} has no layer (add it to LAYERS)`);
    else if (KNOWN.has(edge)) continue;
    else if (LAYERS[to] > LAYERS[from]) problems.push(`${where}: ${from} is below ${to}`);
    else if (LAYERS[from] === COMPONENTS && to !== "core") problems.push(`${where}: a component imports another kind (${edge})`);
  }
}
for (const edge of KNOWN) {
  const [from, to] = edge.split(" -> ");
  if (!seen.has(edge)) problems.push(`KNOWN lists ${edge}, which no file has any more: remove it from scripts/check-imports.ts`);
  else if (LAYERS[from] !== 0 && LAYERS[from] !== COMPONENTS) problems.push(`KNOWN may only list the kernel's and the components' edges, not ${edge}`);
  else if (LAYERS[to] > COMPONENTS) problems.push(`KNOWN may not allow ${edge}: nothing below the top imports a preset or a surface`);
}
for (const component of cycles(graph)) problems.push(`import cycle: ${component.map((file) => relative(SRC, file)).join(" -> ")}`);

if (problems.length > 0) {
  console.error(`check-imports: ${problems.length} problem(s)\n${problems.map((problem) => `  ${problem}`).join("\n")}`);
  process.exit(1);
}
console.log(`check-imports: ${files.size} files, no cycle, layers hold (${KNOWN.size} known edges left to remove)`);
