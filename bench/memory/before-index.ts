// The index the bench's "@before" runs use in workerd: this checkout's, unless run.ts, given --before=<dir>,
// bundles that checkout's src/memory/index-embedded.ts in its place (so no copy of old code lives here).
export { EmbeddedIndex } from "../../src/memory/index-embedded.js";
