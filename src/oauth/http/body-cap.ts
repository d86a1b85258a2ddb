// Every OAuth endpoint takes a small body (a form, a registration, a signed command), so the app reads it whole
// against one cap before the authorization server sees it: a larger declared length is refused unread, a longer
// stream is cut at the cap, and the backend (the Durable Object at the edge) only ever gets the bytes read here.
// Left unread, a big body took the local edge down: wrangler dev exited after a 200 KB JSON POST to /token.
import { declaredLengthWithin, readRequestBody } from "../../server/body.js";
import { jsonResponse } from "../../server/responses.js";

export const OAUTH_MAX_BODY_BYTES = 16 * 1024;
/**
 * A streamed body over the cap is still read to its end up to here (and dropped): cut off mid-stream, it made
 * wrangler dev exit too. 2 MiB covers every size the local edge was seen to fall over at; past it a sender is cut off.
 */
const DRAIN_BYTES = 2 * 1024 * 1024;

function tooLarge(): Response {
  return jsonResponse(413, {
    error: "invalid_request",
    error_description: `the body is larger than ${OAUTH_MAX_BODY_BYTES} bytes`,
    hint: "OAuth requests are small forms or JSON documents; send only the parameters the endpoint takes",
  });
}

/** The request with its body read (at most OAUTH_MAX_BODY_BYTES), or the refusal to send instead. */
export async function withCappedBody(request: Request): Promise<Request | Response> {
  if (request.body === null) return request;
  if (!declaredLengthWithin(request.headers.get("Content-Length"), OAUTH_MAX_BODY_BYTES)) return tooLarge();
  const read = await readRequestBody(request, OAUTH_MAX_BODY_BYTES, DRAIN_BYTES);
  if (!read.ok) {
    return read.why === "too_large" ? tooLarge() : jsonResponse(400, { error: "invalid_request", error_description: "the body ended before its declared length" });
  }
  return new Request(request, { body: read.bytes as Uint8Array<ArrayBuffer> });
}
