/**
 * The layering rule of src/ (docs/architecture.md), run by `npm run lint`: no import cycle between files, type-only
 * imports included, no import from a higher layer, and no component importing another kind. There are no
 * exceptions.
 *   npx tsx scripts/check-imports.ts
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

/**
 * Layers from the bottom: the kernel, the model runtimes (ONNX sessions, tokenizers, transformers.js) that
 * embeddings and evaluations both run, the components (one folder per kind), then the presets and the surfaces on
 * top, then the root entry. A file may import its own layer and those below; a component only the kernel, the
 * model runtimes and its own kind.
 */
const LAYERS: Readonly<Record<string, number>> = {
  core: 0,
  models: 1,
  embeddings: 2,
  similarity: 2,
  stores: 2,
  processors: 2,
  manager: 2,
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
const COMPONENTS = 2;
for (const [file, imported] of graph) {
  const from = layerName(file);
  for (const target of imported) {
    const to = layerName(target);
    if (from === to) continue;
    const edge = `${from} -> ${to}`;
    const where = `${relative(SRC, file)} imports ${relative(SRC, target)}`;
    if (LAYERS[from] === undefined || LAYERS[to] === undefined) problems.push(`${where}: the folder ${LAYERS[from] === undefined ? from : to} has no layer (add it to LAYERS)`);
    else if (LAYERS[to] > LAYERS[from]) problems.push(`${where}: ${from} is below ${to}`);
    else if (LAYERS[from] === COMPONENTS && LAYERS[to] === COMPONENTS) problems.push(`${where}: a component imports another kind (${edge})`);
  }
}
for (const component of cycles(graph)) problems.push(`import cycle: ${component.map((file) => relative(SRC, file)).join(" -> ")}`);

if (problems.length > 0) {
  console.error(`check-imports: ${problems.length} problem(s)\n${problems.map((problem) => `  ${problem}`).join("\n")}`);
  process.exit(1);
}
console.log(`check-imports: ${files.size} files, no cycle, layers hold`);
