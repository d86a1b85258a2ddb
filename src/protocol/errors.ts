/** A caller error in the protocol layer (bad seed, unknown suite when signing, malformed file). The message names the exact problem. */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProtocolError";
  }
}
