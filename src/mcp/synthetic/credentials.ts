import type { SyntheticTool } from "./types.js";
import { serviceOnly } from "./types.js";
import { okJson } from "../tool-outcome.js";
import { signPresentation } from "../../protocol/index.js";

/**
 * A W3C Verifiable Presentation of the credentials this motebit holds (its credential store: verified, about
 * itself; only those valid now and issued by someone else, notPresentedBecause), with the holder's eddsa-jcs-2022
 * proof (motebit/credential@1.0 §2.2), the shape the reference answers. With none held, `verifiableCredential` is empty — the presentation still proves who presents.
 */
export const credentialsTool: SyntheticTool = {
  name: "motebit_credentials",
  description:
    "Returns a W3C Verifiable Presentation of the credentials this service motebit holds, with its eddsa-jcs-2022 holder proof (empty until its owner adds one a relay or peer issued).",
  inputSchema: { type: "object", properties: {} },
  risk: 0,
  audience: "both",
  oauthScope: "motebit:read",
  offered: serviceOnly,
  async run(_args, m) {
    const now = m.clock.now();
    return okJson(await signPresentation(m.credentials.presentable(now), m.signer, now));
  },
};
