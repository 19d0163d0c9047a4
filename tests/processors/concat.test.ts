import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { Config } from "../../src/core/config.js";
import { ValidationError } from "../../src/core/errors.js";
import { concatAllQueries } from "../../src/processors/context/concat.js";

const conversation = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "q1" },
  { role: "assistant", content: "a1" },
  { role: "user", content: "q2" },
  { role: "assistant", content: "a2" },
  { role: "user", content: [{ type: "text", text: "q3" }] },
];

describe("concatAllQueries", () => {
  it("keeps the last contextLen turns not in skipList, as ROLE: text lines", () => {
    const config = new Config({ contextLen: 2 });
    expect(concatAllQueries({ messages: conversation }, { config })).toBe("USER: q2\nUSER: q3");
  });

  it("counts contextLen after skipping, and honours a custom skipList", () => {
    expect(concatAllQueries({ messages: conversation }, { config: new Config({ contextLen: 5 }) })).toBe("USER: q1\nUSER: q2\nUSER: q3");
    const config = new Config({ contextLen: 3, skipList: ["system"] });
    expect(concatAllQueries({ messages: conversation }, { config })).toBe("USER: q2\nASSISTANT: a2\nUSER: q3");
  });

  it("reads LangChain messages", () => {
    const messages = [new SystemMessage("s"), new HumanMessage("hi"), new AIMessage("hello"), new HumanMessage("bye")];
    expect(concatAllQueries({ messages }, { config: new Config() })).toBe("USER: hi\nUSER: bye");
  });

  it("needs messages", () => {
    expect(() => concatAllQueries({ prompt: "x" }, { config: new Config() })).toThrow(ValidationError);
  });
});
