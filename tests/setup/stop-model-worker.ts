/**
 * Each test file loads its own copy of the sources, and with them a model worker thread of its own: stopped
 * after the file, or one Jest process would keep a thread and a TF.js model in memory for every file that
 * used one.
 */
import { afterAll } from "@jest/globals";
import { stopUseWorkers } from "../../src/embeddings/use-worker-pool.js";

afterAll(() => stopUseWorkers());
