/**
 * Copies the data files the sources read at run time (the judge's lexicon.txt) from src/ to dist/, where
 * tsc does not put them: it emits only what is imported (JSON is; a lexicon read lazily is not).
 */
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const DATA = [".txt"];

function* files(dir: string): Iterable<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (DATA.some((extension) => entry.name.endsWith(extension))) yield path;
  }
}

let copied = 0;
for (const file of files("src")) {
  const target = join("dist", relative("src", file));
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(file, target);
  copied++;
}
console.log(`copy-data: ${copied} data files -> dist/`);
