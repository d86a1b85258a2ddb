import { DurableObject } from "cloudflare:workers";

export class MotebitObject extends DurableObject {}
