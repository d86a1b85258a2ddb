import type { SyntheticTool } from "./types.js";
import { always } from "./types.js";
import { okJson } from "../tool-outcome.js";

export const toolsTool: SyntheticTool = {
  name: "motebit_tools",
  description:
    "Lists the tools you may call on this motebit (built-in and served), with their risk levels. Use it for capability discovery before submitting tasks.",
  inputSchema: { type: "object", properties: {} },
  risk: 0,
  offered: always,
  async run(_args, m, c) {
    return okJson(m.callableTools(c.principal));
  },
};
