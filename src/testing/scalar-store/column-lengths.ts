/** The scalar store contract: column lengths (tableLenConfig), counted in characters, and text that round-trips. */
import { ValidationError, ValueTooLongError } from "../../core/errors.js";
import type { NewRecord } from "../../core/types.js";
import { DEFAULT_TABLE_LEN, type TableLenConfig } from "../../core/contracts/scalar-store.js";
import { sampleRecord, type ScalarSuitePart } from "./harness.js";

export function columnLengthTests({ runner, open, has, itWith }: ScalarSuitePart): void {
  const { it, expect } = runner;
  const limited = itWith("columnLengths");

  limited("rejects a batch with a too-long question with ValueTooLongError and writes none of it", async () => {
    const store = await open();
    const tooLong = "x".repeat(DEFAULT_TABLE_LEN.question + 1);
    const attempt = store.insert([sampleRecord({ keyHash: "ok", session: "s" }), sampleRecord({ question: tooLong })]);
    await expect(attempt).rejects.toBeInstanceOf(ValueTooLongError);
    await expect(attempt).rejects.toMatchObject({
      field: "question",
      length: DEFAULT_TABLE_LEN.question + 1,
      maxLength: DEFAULT_TABLE_LEN.question,
    });
    expect(await store.count()).toBe(0);
    expect(await store.findByKey("ok")).toBeNull();
    if (has("sessions")) expect(await store.listSessions()).toEqual([]);
    expect(await store.insert([sampleRecord({ question: tooLong.slice(1) })])).toHaveLength(1);
  });

  const small: TableLenConfig = { question: 5, answer: 5, sessionId: 5, depName: 5, depData: 5 };
  const fields: Array<[keyof TableLenConfig, (value: string) => Partial<NewRecord>]> = [
    ["question", (question) => ({ question })],
    ["answer", (answer) => ({ answer })],
    ["sessionId", (session) => ({ session })],
    ["depName", (name) => ({ deps: [{ name, data: "d", type: "str" }] })],
    ["depData", (data) => ({ deps: [{ name: "n", data, type: "str" }] })],
  ];
  for (const [field, withValue] of fields) {
    (field === "sessionId" ? itWith("columnLengths", "sessions") : limited)(`enforces tableLenConfig.${field}, accepting values at the limit`, async () => {
      const store = await open({ tableLenConfig: small });
      expect(store.tableLen).toEqual(small);
      await expect(store.insert([sampleRecord(withValue("123456"))])).rejects.toMatchObject({ field, length: 6, maxLength: 5 });
      expect(await store.insert([sampleRecord(withValue("12345"))])).toHaveLength(1);
      expect(await store.count()).toBe(1);
    });
  }

  itWith("columnLengths", "sessions")("rejects a too-long session id in addSession without linking it", async () => {
    const store = await open({ tableLenConfig: { sessionId: 3 } });
    const [id] = await store.insert([sampleRecord()]);
    await expect(store.addSession(id, "abcd")).rejects.toBeInstanceOf(ValueTooLongError);
    expect(await store.sessionsOf(id)).toEqual([]);
  });

  limited("counts column lengths in characters, not UTF-16 units", async () => {
    const store = await open({ tableLenConfig: { question: 5 } });
    expect(await store.insert([sampleRecord({ question: "😀😀😀😀😀" })])).toHaveLength(1);
    await expect(store.insert([sampleRecord({ question: "😀😀😀😀😀😀" })])).rejects.toMatchObject({ length: 6 });
  });

  limited("rejects an invalid tableLenConfig with ValidationError", async () => {
    await expect(open({ tableLenConfig: { question: 0 } })).rejects.toBeInstanceOf(ValidationError);
    await expect(
      open({ tableLenConfig: { question_length: 10 } as unknown as Partial<TableLenConfig> }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it("round-trips unicode text in every column", async () => {
    const store = await open();
    const text = "Ünïcödé 中文 العربية 😀👩‍👩‍👧 e\u0301 \t\n'\"\\ %_";
    const [id] = await store.insert([
      sampleRecord({
        question: text,
        answer: `${text}!`,
        keyHash: text,
        partition: text,
        session: has("sessions") ? text : undefined,
        deps: [{ name: text, data: text, type: "str" }],
      }),
    ]);
    const record = await store.findByKey(text);
    expect(record).toMatchObject({ id, question: text, answer: `${text}!`, partition: text });
    expect(record?.deps).toEqual([{ name: text, data: text, type: "str" }]);
    if (has("sessions")) {
      expect(await store.sessionsOf(id)).toEqual([text]);
      expect(await store.listSessions(text)).toEqual([{ id, session: text }]);
    }
  });
}
