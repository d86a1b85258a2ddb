export { MotebitObject } from "../durable-objects/motebit-object.js";

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/health") return Response.json({ status: "ok" });
    return new Response("not found", { status: 404 });
  },
};
