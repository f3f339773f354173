/**
 * The part of the WebAssembly global the worker uses: Node has it, but TypeScript declares it
 * only in the DOM library, which the repository does not load.
 */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
  }
}
