// The sentence encoder's worker thread, as source for `new Worker(…, { eval: true })`: the CLI is one bundled
// file, so the worker has no file of its own to start from. It loads the model once (TF.js on its WebAssembly
// backend, from the packages' own folders, no network), then embeds each request's texts in batches, one
// request at a time, and answers with one flat Float32Array per request. Plain JavaScript: nothing compiles it.
export const ENCODER_WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const BATCH = 32;
const message = (e) => String((e && e.message) || e);
(async () => {
  let model;
  try {
    const t0 = performance.now();
    const { initModel } = require(workerData.embeddings);
    const { modelSource } = require(workerData.model);
    model = await initModel(modelSource);
    parentPort.postMessage({ ready: performance.now() - t0 });
  } catch (e) {
    parentPort.postMessage({ failed: message(e) });
    return;
  }
  let queue = Promise.resolve();
  parentPort.on("message", ({ id, texts }) => {
    queue = queue.then(async () => {
      try {
        const out = new Float32Array(texts.length * workerData.dimensions);
        for (let i = 0; i < texts.length; i += BATCH) {
          const rows = await model.embed(texts.slice(i, i + BATCH));
          rows.forEach((row, k) => out.set(row, (i + k) * workerData.dimensions));
        }
        parentPort.postMessage({ id, vectors: out.buffer }, [out.buffer]);
      } catch (e) {
        parentPort.postMessage({ id, error: message(e) });
      }
    });
  });
})();
`;
