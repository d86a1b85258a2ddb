// The answer to one POST as an SSE stream, opened only when something must reach the client before the result
// (progress, a log line, a server→client request). Until then nothing is committed, so a call that sends
// nothing early is still answered with plain JSON.
const encoder = new TextEncoder();

export class PostStream {
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  private stream: ReadableStream<Uint8Array> | null = null;
  private closed = false;
  private markOpened!: () => void;
  /** Resolves when the first message has been sent. */
  readonly opened = new Promise<void>((resolve) => (this.markOpened = resolve));

  /**
   * `allowed`: the client accepts text/event-stream; without it early messages are dropped.
   * `onDropped`: the client went away before the end (its call should stop, and what it waits for be freed).
   */
  constructor(
    private readonly allowed: boolean,
    private readonly onDropped: () => void = () => {},
  ) {}

  get started(): boolean {
    return this.stream !== null;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.stream;
  }

  /** False when the message could not be sent (no SSE for this client, or the stream is over). */
  send(message: unknown): boolean {
    if (!this.allowed || this.closed) return false;
    if (this.stream === null) {
      this.stream = new ReadableStream<Uint8Array>({
        start: (c) => void (this.controller = c),
        // The client went away: later messages have nowhere to go.
        cancel: () => {
          this.closed = true;
          this.onDropped();
        },
      });
      this.markOpened();
    }
    this.controller!.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
    return true;
  }

  /** Sends the final response and ends the stream. */
  finish(response: unknown): void {
    this.send(response);
    if (this.closed) return;
    this.closed = true;
    this.controller?.close();
  }
}
