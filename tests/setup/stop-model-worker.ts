/**
 * Each test file loads its own copy of the sources, and with them a model worker thread of its own: stopped
 * after the file, or one Jest process would pile up a thread and a TF.js model per file (a later worker then
 * failed to start its backend).
 */
import { afterAll } from "@jest/globals";
import { stopUseWorker } from "../../src/embeddings/use-worker.js";

afterAll(() => stopUseWorker());
