// Where a request came from, as a host's front door states it in a header no caller can set (the edge:
// CF-Connecting-IP, worker/caller-source.ts). The rule runs here in the core, so the app reads a request's source
// without calling back into its host.

/** The source named by `header`, or undefined when the request has none. */
export function headerSource(header: string): (request: Request) => string | undefined {
  return (request) => request.headers.get(header) ?? undefined;
}
