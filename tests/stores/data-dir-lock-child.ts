/**
 * Child process of tests/stores/data-dir-lock.test.ts: opens a sqlite + hnswlib data manager on argv[2], saves
 * argv[3] entries (at most 16: vector i is the unit vector on axis i), flushes (the index is saved), prints "ready <pid>"
 * and then holds the data dir until it is killed.
 */
import { writeSync } from "node:fs";
import { managerFactory } from "../../src/presets/manager-factory.js";

const [dataDir, count] = [process.argv[2], Number(process.argv[3])];
const manager = managerFactory("sqlite,hnswlib", { dataDir });
await manager.init();
const axis = (i: number) => Float32Array.from({ length: 16 }, (_, j) => (j === i ? 1 : 0));
for (let i = 0; i < count; i++) {
  await manager.save([{ question: `question ${i}`, keyHash: `key ${i}`, partition: "", answer: `answer ${i}`, embedding: axis(i) }]);
}
await manager.flush();
writeSync(1, `ready ${process.pid}\n`);
setInterval(() => undefined, 60_000);
