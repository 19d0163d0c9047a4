/**
 * Replicate's predictions API over `fetch`: create (sync mode with `Prefer: wait=N`, else async), poll
 * `GET /v1/predictions/{id}` until the prediction ends, cancel one left behind (a timeout, an abort), and
 * download output files. A failed or canceled prediction is thrown as `ModelServerError` (never cached).
 */
import { ValidationError } from "../../core/errors.js";
import { throwUnlessOk, unexpectedAnswer, type ProviderConnection } from "../images/provider-http.js";
import { ModelServerError } from "../local-models/model-server.js";
import { decodeDataUrl } from "../../core/data-url.js";

export type PredictionStatus = "starting" | "processing" | "succeeded" | "failed" | "canceled" | "aborted";

/** A prediction as the API answers it (fields this client does not read are kept as they came). */
export interface Prediction {
  id: string;
  status: PredictionStatus;
  output?: unknown;
  error?: unknown;
  urls?: { get?: string; cancel?: string; stream?: string };
  [field: string]: unknown;
}

export interface PredictionTiming {
  /** Sync mode: how long the create request may be held open, 1 to 60 seconds; 0 creates asynchronously. */
  waitSeconds: number;
  /** Pause between two polls of an unfinished prediction. */
  pollIntervalMs: number;
  /** Gives up (and cancels the prediction) when it has not ended after this long. */
  timeoutMs: number;
}

const ENDED = new Set(["succeeded", "failed", "canceled", "aborted"]);

/** "owner/name" runs the model's latest version; "owner/name:version" or a bare version id runs that version. */
export function predictionTarget(model: string): { path: string; version?: string } {
  const versioned = /^([\w.-]+\/[\w.-]+):(\w+)$/.exec(model);
  if (versioned) return { path: "/v1/predictions", version: versioned[2] };
  if (/^[\w.-]+\/[\w.-]+$/.test(model)) return { path: `/v1/models/${model}/predictions` };
  if (/^[0-9a-f]{64}$/.test(model)) return { path: "/v1/predictions", version: model };
  throw new ValidationError(`Replicate: "${model}" is not a model ("owner/name", "owner/name:version" or a version id).`);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function checkPrediction(body: unknown): Prediction {
  const prediction = body as Prediction | null;
  if (typeof prediction?.id !== "string" || typeof prediction.status !== "string") throw unexpectedAnswer("Replicate", body);
  return prediction;
}

async function requestPrediction(connection: ProviderConnection, path: string, init: RequestInit): Promise<Prediction> {
  const response = await throwUnlessOk(await connection.fetch(`${connection.baseUrl}${path}`, { ...init, headers: { ...connection.headers, ...init.headers } }));
  return checkPrediction(await response.json());
}

/** Best effort: a prediction nobody waits for any more should not keep running (and billing). */
async function cancel(connection: ProviderConnection, id: string): Promise<void> {
  await requestPrediction(connection, `/v1/predictions/${encodeURIComponent(id)}/cancel`, { method: "POST" }).catch(() => undefined);
}

/** Runs a prediction to its end and returns it succeeded. */
export async function runPrediction(
  connection: ProviderConnection,
  model: string,
  input: Record<string, unknown>,
  timing: PredictionTiming,
  signal?: AbortSignal,
): Promise<Prediction> {
  const { path, version } = predictionTarget(model);
  const started = Date.now();
  let prediction = await requestPrediction(connection, path, {
    method: "POST",
    headers: { "content-type": "application/json", ...(timing.waitSeconds > 0 ? { prefer: `wait=${timing.waitSeconds}` } : {}) },
    body: JSON.stringify(version ? { version, input } : { input }),
    signal,
  });
  try {
    while (!ENDED.has(prediction.status)) {
      if (Date.now() - started >= timing.timeoutMs) {
        throw new ModelServerError(`Replicate prediction ${prediction.id} did not finish within ${timing.timeoutMs} ms (canceled).`, undefined, prediction);
      }
      await sleep(timing.pollIntervalMs, signal);
      prediction = await requestPrediction(connection, `/v1/predictions/${encodeURIComponent(prediction.id)}`, { method: "GET", signal });
    }
  } catch (error) {
    await cancel(connection, prediction.id);
    throw error;
  }
  if (prediction.status !== "succeeded") {
    const reason = typeof prediction.error === "string" && prediction.error !== "" ? prediction.error : prediction.status;
    throw new ModelServerError(`Replicate prediction ${prediction.id} ${prediction.status}: ${reason}`, undefined, prediction);
  }
  return prediction;
}

/**
 * An output file's bytes: a `data:` URL decoded, an http(s) URL downloaded. The API key is sent only to the
 * API's own origin (its files endpoint); delivery links are public and must not receive it.
 */
export async function downloadOutput(connection: ProviderConnection, url: string, timeoutMs: number, signal?: AbortSignal): Promise<Uint8Array> {
  const data = decodeDataUrl(url);
  if (data) return data.bytes;
  if (!/^https?:\/\//i.test(url)) throw unexpectedAnswer("Replicate (an output that is not a file URL)", url);
  const sameOrigin = new URL(url).origin === new URL(connection.baseUrl).origin;
  const timeout = AbortSignal.timeout(timeoutMs);
  const response = await throwUnlessOk(
    await connection.fetch(url, { headers: sameOrigin ? connection.headers : {}, signal: signal ? AbortSignal.any([signal, timeout]) : timeout }),
  );
  return new Uint8Array(await response.arrayBuffer());
}
