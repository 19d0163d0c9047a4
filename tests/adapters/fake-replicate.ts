/**
 * A local server speaking Replicate's predictions API: `POST /v1/models/{owner}/{name}/predictions` (`{ input }`)
 * and `POST /v1/predictions` (`{ version, input }`), sync mode under `Prefer: wait=N`, polling
 * `GET /v1/predictions/{id}`, `POST /v1/predictions/{id}/cancel`, output files under `/files/`, and Replicate's
 * error bodies (`{ title, detail, status }`). Output files are served from a second origin, as replicate.delivery's
 * are. Models (any other is a 404, any other version a 422):
 *   acme/painter, black-forest-labs/flux-schnell   text-to-image: `num_outputs` PNG file URLs (data: URLs with `dataUrls`)
 *   salesforce/blip:VQA_VERSION                    `{ image, question, task }` -> a string naming the image's digest
 *   acme/llava                                     `{ image, prompt }` -> the answer as a list of tokens
 */
import { createHash } from "node:crypto";
import { FakeHttpError, startFakeServer, type FakeRequest, type FakeServer } from "../../src/testing/fake-servers/http.js";
import { solidPng } from "../../src/testing/fake-servers/openai-media.js";

/** BLIP's version id on Replicate. */
export const VQA_VERSION = "2e1dddc8621f72155f24cf2e0adbde548458d3cab9f00c0139eea840d0ac4746";

type ModelKind = "image" | "vqa" | "tokens";
const MODELS: Record<string, ModelKind> = { "acme/painter": "image", "black-forest-labs/flux-schnell": "image", "acme/llava": "tokens" };
const VERSIONS: Record<string, string> = { [VQA_VERSION]: "salesforce/blip" };

export interface FakeReplicateOptions {
  /** The token the server accepts. Default "r8-test". */
  apiToken?: string;
  /** Polls a prediction needs after its creation before it ends (a create in sync mode counts as none). Default 0. */
  pollsUntilDone?: number;
  /** Output files as data: URLs instead of file links. */
  dataUrls?: boolean;
}

export interface FakeReplicateServer extends FakeServer {
  /** Predictions created (each one a model run). */
  predictions(): number;
  /** Ids of the predictions canceled. */
  readonly canceled: string[];
  /** The file server (another origin). */
  readonly files: FakeServer;
}

interface Stored {
  id: string;
  model: string;
  input: Record<string, unknown>;
  pollsLeft: number;
  status: string;
  output?: unknown;
  error?: string;
}

const digestOf = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export async function startFakeReplicate(options: FakeReplicateOptions = {}): Promise<FakeReplicateServer> {
  const token = options.apiToken ?? "r8-test";
  const predictions = new Map<string, Stored>();
  const files = new Map<string, Buffer>();
  const canceled: string[] = [];
  let sequence = 0;
  let baseUrl = "";
  let deliveryUrl = "";

  const notFound = () => new FakeHttpError(404, { title: "Not found", detail: "The requested resource could not be found.", status: 404 });

  function authorize(request: FakeRequest): void {
    if (request.headers.authorization !== `Bearer ${token}`) {
      throw new FakeHttpError(401, { title: "Unauthenticated", detail: "You did not pass a valid authentication token", status: 401 });
    }
  }

  async function imageBytes(image: unknown): Promise<Uint8Array> {
    if (typeof image !== "string") throw new FakeHttpError(422, { title: "Input validation failed", detail: "- image: Expected a file", status: 422 });
    const data = /^data:[^,]*;base64,(.*)$/s.exec(image);
    if (data) return Buffer.from(data[1], "base64");
    return new Uint8Array(await (await fetch(image)).arrayBuffer());
  }

  /** What a model outputs once done; throws a message to fail the prediction. */
  async function run(model: string, input: Record<string, unknown>, id: string): Promise<unknown> {
    const text = String(input.prompt ?? input.question ?? "");
    if (text.includes("fail")) throw new Error("CUDA out of memory");
    if (MODELS[model] === "image") {
      const count = Number(input.num_outputs ?? 1);
      return Array.from({ length: count }, (_, i) => {
        const png = solidPng(`${JSON.stringify(input)}|${i}`, Number(input.width ?? 32) / 8, Number(input.height ?? 32) / 8);
        if (options.dataUrls) return `data:image/png;base64,${png.toString("base64")}`;
        files.set(`${id}-${i}.png`, png);
        return `${deliveryUrl}/files/${id}-${i}.png`;
      });
    }
    const digest = digestOf(await imageBytes(input.image)).slice(0, 12);
    if (model === "salesforce/blip") return `Answer (${String(input.task)}) about ${digest}: ${String(input.question)}`;
    return ["It ", "shows ", digest, " - ", String(input.prompt)];
  }

  async function settle(prediction: Stored): Promise<void> {
    try {
      prediction.output = await run(prediction.model, prediction.input, prediction.id);
      prediction.status = "succeeded";
    } catch (error) {
      prediction.status = "failed";
      prediction.error = (error as Error).message;
    }
  }

  function view(prediction: Stored) {
    const done = prediction.status === "succeeded";
    return {
      id: prediction.id,
      model: prediction.model,
      version: prediction.model === "salesforce/blip" ? VQA_VERSION : "hidden",
      input: prediction.input,
      logs: "",
      output: done ? prediction.output : null,
      error: prediction.error ?? null,
      status: prediction.status,
      created_at: new Date().toISOString(),
      urls: { get: `${baseUrl}/v1/predictions/${prediction.id}`, cancel: `${baseUrl}/v1/predictions/${prediction.id}/cancel` },
    };
  }

  async function create(request: FakeRequest, model: string): Promise<unknown> {
    authorize(request);
    const input = request.json?.input;
    if (typeof input !== "object" || input === null) throw new FakeHttpError(422, { title: "Input validation failed", detail: "input is required", status: 422 });
    const prediction: Stored = { id: `p${++sequence}`, model, input: input as Record<string, unknown>, pollsLeft: options.pollsUntilDone ?? 0, status: "starting" };
    predictions.set(prediction.id, prediction);
    // Sync mode: a prediction that finishes within the wait comes back done.
    if (/^wait(=\d+)?$/.test(String(request.headers.prefer ?? "")) && prediction.pollsLeft === 0) await settle(prediction);
    return view(prediction);
  }

  const server = await startFakeServer({
    "POST /v1/models/*": (request) => {
      const model = /^\/v1\/models\/([^/]+\/[^/]+)\/predictions$/.exec(request.path)?.[1];
      if (!model || !MODELS[model]) throw notFound();
      return create(request, model);
    },
    "POST /v1/predictions": (request) => {
      const model = VERSIONS[String(request.json?.version)];
      if (!model) throw new FakeHttpError(422, { title: "Invalid version", detail: "The specified version does not exist", status: 422 });
      return create(request, model);
    },
    "POST /v1/predictions/*": (request) => {
      authorize(request);
      const prediction = predictions.get(/^\/v1\/predictions\/([^/]+)\/cancel$/.exec(request.path)?.[1] ?? "");
      if (!prediction) throw notFound();
      if (prediction.status === "starting" || prediction.status === "processing") prediction.status = "canceled";
      canceled.push(prediction.id);
      return view(prediction);
    },
    "GET /v1/predictions/*": async (request) => {
      authorize(request);
      const prediction = predictions.get(request.path.split("/").at(-1) ?? "");
      if (!prediction) throw notFound();
      if (prediction.status === "starting" || prediction.status === "processing") {
        prediction.pollsLeft--;
        if (prediction.pollsLeft <= 0) await settle(prediction);
        else prediction.status = "processing";
      }
      return view(prediction);
    },
  });
  // Output files are served from another origin, as replicate.delivery is: the client must not send its token there.
  const delivery = await startFakeServer({
    "GET /files/*": (request, response) => {
      // Delivery links are public: they must not need (nor receive) the API token.
      if (request.headers.authorization) throw new FakeHttpError(400, { detail: "unexpected authorization header" });
      const file = files.get(request.path.slice("/files/".length));
      if (!file) throw notFound();
      response.writeHead(200, { "content-type": "image/png" });
      response.end(file);
    },
  });
  baseUrl = server.url;
  deliveryUrl = delivery.url;
  const close = async () => {
    await server.close();
    await delivery.close();
  };
  return { ...server, close, predictions: () => sequence, canceled, files: delivery };
}
