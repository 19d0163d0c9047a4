import { createReadStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { AIMessage, ChatMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { Config } from "../../src/core/config.js";
import { ValidationError } from "../../src/core/errors.js";
import {
  getFileBytes,
  getMessages,
  getModerationInput,
  getPrompt,
  lastContent,
  lastContentWithoutPrompt,
  lastContentWithoutTemplate,
} from "../../src/processors/pre.js";
import { messageRole, messageText } from "../../src/core/messages.js";
import type { PreEmbeddingFunc } from "../../src/core/contracts/processors.js";

const context = (options: ConstructorParameters<typeof Config>[0] = {}) => ({ config: new Config(options) });

// Every function fits the pipeline's slot (checked by tsc).
const _slots: PreEmbeddingFunc[] = [
  lastContent,
  lastContentWithoutPrompt,
  lastContentWithoutTemplate,
  getPrompt,
  getMessages,
  getFileBytes,
  getModerationInput,
];

describe("messageText", () => {
  it("reads string content, joins text parts with newlines and ignores other parts", () => {
    expect(messageText({ role: "user", content: "hello" })).toBe("hello");
    expect(
      messageText({
        role: "user",
        content: [
          { type: "text", text: "what is" },
          { type: "image_url", image_url: { url: "https://x/y.png" } },
          { type: "text", text: "in this picture?" },
        ],
      }),
    ).toBe("what is\nin this picture?");
  });

  it("treats missing content (assistant tool calls) as empty text", () => {
    expect(messageText({ role: "assistant", content: null })).toBe("");
    expect(messageText({ role: "assistant" })).toBe("");
  });

  it("reads LangChain messages, including content blocks", () => {
    expect(messageText(new HumanMessage("hi there"))).toBe("hi there");
    expect(messageText(new HumanMessage({ content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }))).toBe("a\nb");
  });

  it("rejects non-messages with a ValidationError", () => {
    expect(() => messageText("hello")).toThrow(ValidationError);
    expect(() => messageText({ role: "user", content: 42 })).toThrow(ValidationError);
  });
});

describe("messageRole", () => {
  it("maps LangChain message types to OpenAI roles", () => {
    expect(messageRole(new HumanMessage("a"))).toBe("user");
    expect(messageRole(new AIMessage("a"))).toBe("assistant");
    expect(messageRole(new SystemMessage("a"))).toBe("system");
    expect(messageRole(new ChatMessage("a", "critic"))).toBe("critic");
    expect(messageRole({ role: "tool", content: "x" })).toBe("tool");
  });

  it("rejects a message without a role", () => {
    expect(() => messageRole({ content: "x" })).toThrow(/role/);
  });
});

describe("lastContent", () => {
  it("keys a chat request on its last message", () => {
    const request = { messages: [{ role: "system", content: "be brief" }, { role: "user", content: "what is 2+2?" }] };
    expect(lastContent(request)).toBe("what is 2+2?");
    expect(lastContent({ messages: [new SystemMessage("s"), new HumanMessage("from langchain")] })).toBe("from langchain");
  });

  it("falls back to prompt (string or last of a list), then input", () => {
    expect(lastContent({ prompt: "tell me a joke" })).toBe("tell me a joke");
    expect(lastContent({ prompt: ["first", "second"] })).toBe("second");
    expect(lastContent({ input: "moderate me" })).toBe("moderate me");
    expect(lastContent({ prompt: "p", input: "i" })).toBe("p");
  });

  it("names the missing field", () => {
    expect(() => lastContent({ model: "gpt" })).toThrow(ValidationError);
    expect(() => lastContent({ model: "gpt" })).toThrow(/messages.*prompt.*input/);
    expect(() => lastContent({ messages: [] })).toThrow(/messages/);
    expect(() => lastContent({ prompt: [1, 2] })).toThrow(ValidationError);
  });
});

describe("lastContentWithoutPrompt", () => {
  it("removes every occurrence of each configured prompt, verbatim (not as a pattern)", () => {
    const ctx = context({ prompts: ["Answer briefly (one line).", "[ctx]"] });
    const request = { messages: [{ role: "user", content: "[ctx]Answer briefly (one line). What is a cat?[ctx]" }] };
    expect(lastContentWithoutPrompt(request, ctx)).toBe(" What is a cat?");
  });

  it("leaves the text alone without prompts", () => {
    expect(lastContentWithoutPrompt({ prompt: "a.b" }, context())).toBe("a.b");
  });
});

describe("lastContentWithoutTemplate", () => {
  it("keys on the values filled into the template", () => {
    const ctx = context({ template: "Translate {text} into {lang}" });
    expect(lastContentWithoutTemplate({ prompt: "Translate hello into French" }, ctx)).toBe('["hello","French"]');
    expect(lastContentWithoutTemplate({ prompt: "Translate good morning into Irish Gaelic" }, ctx)).toBe(
      '["good morning","Irish Gaelic"]',
    );
  });

  it("returns the content when no template matches", () => {
    const ctx = context({ template: "Translate {text} into {lang}" });
    expect(lastContentWithoutTemplate({ prompt: "Summarise hello in French" }, ctx)).toBe("Summarise hello in French");
  });

  it("matches template text literally, with {{ }} as braces", () => {
    const ctx = context({ template: "What is {a} + {b}? Reply as {{json}}." });
    expect(lastContentWithoutTemplate({ prompt: "What is 2 + 3? Reply as {json}." }, ctx)).toBe('["2","3"]');
    expect(lastContentWithoutTemplate({ prompt: "What is 2 - 3? Reply as {json}." }, ctx)).toBe("What is 2 - 3? Reply as {json}.");
  });

  it("keeps two templates filled with the same values apart", () => {
    const ctx = context({ template: ["Translate {text} into {lang}", "Summarise {text} in {lang}"] });
    const translate = lastContentWithoutTemplate({ prompt: "Translate hello into French" }, ctx);
    const summarise = lastContentWithoutTemplate({ prompt: "Summarise hello in French" }, ctx);
    expect(translate).toBe('[0,"hello","French"]');
    expect(summarise).toBe('[1,"hello","French"]');
  });
});

describe("getPrompt and getMessages", () => {
  it("reads the prompt and names it when missing", () => {
    expect(getPrompt({ prompt: "hi" })).toBe("hi");
    expect(getPrompt({ prompt: ["a", "b"] })).toBe("b");
    expect(() => getPrompt({ messages: [] })).toThrow(/prompt/);
  });

  it("writes the whole conversation as role: text lines", () => {
    const request = { messages: [new SystemMessage("be brief"), new HumanMessage("hi"), new AIMessage("hello!"), { role: "user", content: "bye" }] };
    expect(getMessages(request)).toBe("system: be brief\nuser: hi\nassistant: hello!\nuser: bye");
    expect(() => getMessages({ prompt: "x" })).toThrow(/messages/);
  });
});

describe("getFileBytes", () => {
  const bytes = new Uint8Array([1, 2, 3, 250]);
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "semcache-pre-"));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("accepts bytes in every form the OpenAI SDK uploads", async () => {
    const path = join(dir, "audio.mp3");
    await writeFile(path, bytes);
    const forms: unknown[] = [
      bytes,
      Buffer.from(bytes),
      bytes.slice().buffer,
      new DataView(bytes.slice().buffer),
      new Blob([bytes]),
      new File([bytes], "audio.mp3"),
      new Response(bytes),
      createReadStream(path),
      Readable.from([Buffer.from([1, 2]), Buffer.from([3, 250])]),
      { data: Buffer.from(bytes) },
    ];
    for (const file of forms) {
      const result = await getFileBytes({ file });
      expect(result).toBeInstanceOf(Uint8Array);
      expect([...result]).toEqual([...bytes]);
    }
  });

  it("names the missing or unusable file", async () => {
    await expect(getFileBytes({})).rejects.toThrow(/file/);
    await expect(getFileBytes({ file: 42 })).rejects.toThrow(ValidationError);
    await expect(getFileBytes({ file: { data: { data: bytes } } })).rejects.toThrow(ValidationError);
  });
});

describe("getModerationInput", () => {
  it("uses a string as is and a list as JSON", () => {
    expect(getModerationInput({ input: "is this ok?" })).toBe("is this ok?");
    expect(getModerationInput({ input: ["hello", "world"] })).toBe('["hello","world"]');
    expect(() => getModerationInput({ prompt: "x" })).toThrow(/input/);
  });
});
