/**
 * @huggingface/transformers, loaded on first use. Its types appear only here and in the files that run it, never in
 * a public declaration, so an app without the package compiles against ours (skipLibCheck off).
 */
import type * as TransformersModule from "@huggingface/transformers";
import { importOptional } from "../core/optional-import.js";

export type Transformers = typeof TransformersModule;

/** The library (a MissingDependencyError naming it when it is not installed). */
export async function importTransformers(feature: string): Promise<Transformers> {
  const imported = await importOptional<Transformers & { default?: Transformers }>("@huggingface/transformers", feature);
  return imported.default ?? imported;
}
