// stdin for the stdio host, one whole line at a time and none longer than a cap: a runaway writer (a huge or
// endless line) costs at most `maxBytes` of memory and gets a JSON-RPC error, and the next line is read cleanly.
// What a line holds (its depth, its JSON) is judged by the one decoder both hosts use (decodeMessage).
import { Transform, type TransformCallback } from "node:stream";

/** The stdio counterpart of the HTTP body cap, larger because the owner may hand big arguments to local tools. */
export const MAX_STDIN_LINE_BYTES = 16 * 1024 * 1024;

export class LineCap extends Transform {
  private pieces: Buffer[] = [];
  private lineBytes = 0;
  private dropping = false;

  constructor(
    private readonly maxBytes: number,
    /** Called once per line too long, when its end arrives. */
    private readonly onDropped: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.collect(chunk.subarray(start, nl + 1));
      this.emitLine();
      this.pieces = [];
      this.lineBytes = 0;
      this.dropping = false;
      start = nl + 1;
    }
    if (start < chunk.length) this.collect(chunk.subarray(start));
    done();
  }

  override _flush(done: TransformCallback): void {
    // A last line without a newline is still a line (the framing drops it, as it always did).
    if (this.dropping || this.pieces.length) this.emitLine();
    done();
  }

  private emitLine(): void {
    if (this.dropping) return this.onDropped();
    this.push(Buffer.concat(this.pieces));
  }

  private collect(piece: Buffer): void {
    this.lineBytes += piece.length;
    if (this.lineBytes > this.maxBytes) {
      this.dropping = true;
      this.pieces = [];
      return;
    }
    if (!this.dropping) this.pieces.push(piece);
  }
}
