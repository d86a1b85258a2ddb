// The edge Worker: the host-neutral app over the deployment's Durable Object.
import { createApp } from "./app.js";
import { durableObjectBackend } from "./durable-object-backend.js";
import type { EdgeEnv } from "./env.js";

export { MotebitObject } from "../durable-objects/motebit-object.js";

export default createApp<EdgeEnv>(durableObjectBackend);
