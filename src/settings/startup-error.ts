/**
 * The server cannot start: bad configuration or an identity that does not hold together.
 * Hosts answer every request with HTTP 500 and this message, and log it, until the operator fixes it.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}
