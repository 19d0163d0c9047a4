/**
 * Jest's node environment, with Node's own typed-array classes: onnxruntime-node's native binding makes its
 * output arrays in Node's main realm, and onnxruntime-common (loaded inside jest's VM context) would reject
 * them as "not a Float32Array". Test files that run ONNX models select it with `@jest-environment`.
 */
import { TestEnvironment } from "jest-environment-node";

const TYPED_ARRAYS = [
  "ArrayBuffer", "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array",
  "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array",
];

export class OnnxEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of TYPED_ARRAYS) this.global[name] = globalThis[name];
  }
}

export default OnnxEnvironment;
