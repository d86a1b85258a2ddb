// The Node host's HTTP surface (the shared app in-process) against the shared hostile requests.
import { describeHostileRequests } from "../../shared/hostile-requests.js";
import { nodeAppHost } from "../helpers/node-app.js";

describeHostileRequests("Node host", nodeAppHost);
