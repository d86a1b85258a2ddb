import type { SyntheticTool } from "./types.js";
import { always } from "./types.js";
import { okJson } from "../tool-outcome.js";

export const toolsTool: SyntheticTool = {
  name: "motebit_tools",
  description:
    "Lists the tools you may call on this motebit (built-in and served), with their risk levels. Use it for capability discovery before submitting tasks.",
  inputSchema: { type: "object", properties: {} },
  risk: 0,
  audience: "both",
  oauthScope: "motebit:read",
  offered: always,
  async run(_args, _m, c) {
    return okJson(c.view.callable());
  },
};
