import { createReadStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import { toFile } from "openai";
import { Config, DistanceEvaluation, managerFactory } from "../../../src/index.js";
import { BagOfWordsEmbedding } from "../../helpers/fixtures.js";
import { closeAll, setup } from "./harness.js";

afterEach(closeAll);

const TRANSCRIPTIONS = "/v1/audio/transcriptions";

/** "Audio" the fake server hears as its own bytes read as text. */
const audio = (text: string, name = "clip.mp3") => toFile(Buffer.from(text), name, { type: "audio/mpeg" });

describe("wrapOpenAI: audio transcriptions and translations", () => {
  it("keys on the file's bytes: the same recording hits under any name; other bytes miss", async () => {
    const h = await setup();
    const miss = await h.openai.audio.transcriptions.create({ model: "whisper-1", file: await audio("hello world") });
    expect(miss).toMatchObject({ text: "hello world" });
    expect(miss.semcache).toBeUndefined();
    const hit = await h.openai.audio.transcriptions.create({ model: "whisper-1", file: await audio("hello world", "renamed.mp3") });
    expect(hit).toEqual({ text: "hello world", semcache: { hit: true, score: 1, id: expect.any(Number) } });
    const other = await h.openai.audio.transcriptions.create({ model: "whisper-1", file: await audio("goodbye world") });
    expect(other.text).toBe("goodbye world");
    expect(h.server.count(TRANSCRIPTIONS)).toBe(2);
  });

  it("reads a file stream once and still sends the provider the whole file under its name", async () => {
    const h = await setup();
    const path = join(h.dir, "speech.wav");
    writeFileSync(path, "streamed speech");
    expect((await h.openai.audio.transcriptions.create({ model: "whisper-1", file: createReadStream(path) })).text).toBe("streamed speech");
    const hit = await h.openai.audio.transcriptions.create({ model: "whisper-1", file: createReadStream(path) });
    expect(hit.semcache?.hit).toBe(true);
    const upload = h.server.requests.find((request) => request.path === TRANSCRIPTIONS)!;
    expect(upload.body.toString("latin1")).toMatch(/filename="speech\.wav"[\s\S]*streamed speech/);
    expect(h.server.count(TRANSCRIPTIONS)).toBe(1);
  });

  it("each response format is kept apart and served in its own shape: text as a string, verbose_json whole", async () => {
    const h = await setup();
    const file = async () => audio("formats matter");
    expect(await h.openai.audio.transcriptions.create({ model: "whisper-1", file: await file(), response_format: "text" })).toBe("formats matter");
    expect(await h.openai.audio.transcriptions.create({ model: "whisper-1", file: await file(), response_format: "text" })).toBe("formats matter");
    const verbose = await h.openai.audio.transcriptions.create({ model: "whisper-1", file: await file(), response_format: "verbose_json" });
    const verboseHit = await h.openai.audio.transcriptions.create({ model: "whisper-1", file: await file(), response_format: "verbose_json" });
    expect(verboseHit).toEqual({ ...verbose, semcache: { hit: true, score: 1, id: expect.any(Number) } });
    expect(verboseHit.segments?.[0].text).toBe("formats matter");
    const json = await h.openai.audio.transcriptions.create({ model: "whisper-1", file: await file() });
    expect(json.semcache).toBeUndefined();
    expect(h.server.count(TRANSCRIPTIONS)).toBe(3);
  });

  it("translations are kept apart from transcriptions of the same file; the prompt partitions", async () => {
    const h = await setup();
    await h.openai.audio.transcriptions.create({ model: "whisper-1", file: await audio("bonjour") });
    const translated = await h.openai.audio.translations.create({ model: "whisper-1", file: await audio("bonjour") });
    expect(translated.text).toBe("(in English) bonjour");
    expect((await h.openai.audio.translations.create({ model: "whisper-1", file: await audio("bonjour") })).semcache?.hit).toBe(true);
    const prompted = await h.openai.audio.transcriptions.create({ model: "whisper-1", file: await audio("bonjour"), prompt: "French greeting" });
    expect(prompted.semcache).toBeUndefined();
    expect(h.server.count(TRANSCRIPTIONS) + h.server.count("/v1/audio/translations")).toBe(3);
  });

  it("on a semantic cache two different recordings never share an answer, even at threshold 0", async () => {
    const h = await setup({
      cache: (dir) => ({
        embeddingFunc: new BagOfWordsEmbedding(),
        dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir }),
        similarityEvaluation: new DistanceEvaluation(),
        config: new Config({ similarityThreshold: 0 }),
      }),
    });
    expect((await h.openai.audio.transcriptions.create({ model: "whisper-1", file: await audio("first recording") })).text).toBe("first recording");
    expect((await h.openai.audio.transcriptions.create({ model: "whisper-1", file: await audio("second recording") })).text).toBe("second recording");
    expect((await h.openai.audio.transcriptions.create({ model: "whisper-1", file: await audio("first recording") })).semcache?.hit).toBe(true);
    expect(h.server.count(TRANSCRIPTIONS)).toBe(2);
  });

  it("a file the cache cannot read goes to the provider as is, and the provider's error comes back", async () => {
    const h = await setup();
    const direct = await h.client.audio.transcriptions.create({ model: "whisper-1", file: 42 as never }).catch((error: Error) => error);
    const wrapped = await h.openai.audio.transcriptions.create({ model: "whisper-1", file: 42 as never }).catch((error: Error) => error);
    expect(wrapped).toBeInstanceOf(Error);
    expect(wrapped).toEqual(direct);
    expect(wrapped.constructor).toBe(direct.constructor);
    expect(h.cache.report.requests).toBe(0);
  });
});
