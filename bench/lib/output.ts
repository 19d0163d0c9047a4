/** Markdown tables, number formats, and the JSON files every benchmark writes. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** bench/results, where each benchmark leaves its JSON. */
export const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "results");

export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** Microseconds: one decimal below 100, whole above. */
export const us = (value: number): string => (value < 100 ? value.toFixed(1) : value.toFixed(0));
/** Microseconds shown as milliseconds. */
export const ms = (microseconds: number): string => (microseconds / 1000).toFixed(microseconds < 10_000 ? 2 : 1);
export const ratio = (value: number): string => `${value.toFixed(1)}x`;
export const count = (value: number): string => Math.round(value).toLocaleString("en");
export const fraction = (value: number): string => value.toFixed(4);
export const bytes = (value: number): string => `${count(value)} B`;
export const mib = (value: number): string => `${(value / 1024 / 1024).toFixed(0)} MiB`;

export function writeJson(path: string, data: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
}

/** The run's context, recorded in every JSON file. */
export function environment() {
  return { date: new Date().toISOString(), node: process.version, platform: `${process.platform} ${process.arch}` };
}

/** Writes a scenario's result where bench/run.ts asked (`--json <file>`), else to bench/results/<name>.json. */
export function saveResult(name: string, result: unknown, jsonPath?: string): void {
  writeJson(jsonPath ?? join(RESULTS_DIR, `${name}.json`), result);
  if (jsonPath === undefined) console.log(`\nwrote bench/results/${name}.json`);
}
