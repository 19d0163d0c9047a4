/** The part of s3rver (which ships no types) the tests and benchmarks use. */
declare module "s3rver" {
  import type { AddressInfo } from "node:net";

  export default class S3rver {
    constructor(options: { directory: string; address?: string; port?: number; silent?: boolean });
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
