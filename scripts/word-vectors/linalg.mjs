// Dense linear algebra for the word-table derivation (row-major Float64Arrays): enough for PCA, orthogonal
// Procrustes and a ridge least-squares solve, so the derivation needs no numeric package.

/** Eigen-decomposition of a symmetric n×n matrix by cyclic Jacobi rotations: { values, vectors (columns) }, largest first. */
export function symmetricEigen(matrix, n) {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q] ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (Math.abs(apq) < 1e-30) continue;
        const theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p], vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = [...Array(n).keys()].sort((i, j) => a[j * n + j] - a[i * n + i]);
  const vectors = new Float64Array(n * n);
  order.forEach((col, k) => {
    for (let i = 0; i < n; i++) vectors[i * n + k] = v[i * n + col];
  });
  return { values: Float64Array.from(order, (i) => a[i * n + i]), vectors };
}

/** Rows (rows×d) centred and projected on their top k principal directions: rows×k. */
export function pca(x, rows, d, k) {
  const mean = new Float64Array(d);
  for (let i = 0; i < rows; i++) for (let j = 0; j < d; j++) mean[j] += x[i * d + j] / rows;
  const cov = new Float64Array(d * d);
  const c = new Float64Array(d);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < d; j++) c[j] = x[i * d + j] - mean[j];
    for (let j = 0; j < d; j++) {
      const cj = c[j];
      if (cj === 0) continue;
      const o = j * d;
      for (let l = j; l < d; l++) cov[o + l] += cj * c[l];
    }
  }
  for (let j = 0; j < d; j++) for (let l = j; l < d; l++) cov[l * d + j] = cov[j * d + l];
  const { vectors } = symmetricEigen(cov, d);
  const out = new Float64Array(rows * k);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < d; j++) c[j] = x[i * d + j] - mean[j];
    for (let m = 0; m < k; m++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += c[j] * vectors[j * d + m];
      out[i * k + m] = s;
    }
  }
  return out;
}

/** Each row scaled to unit length, in place (zero rows stay zero). */
export function normaliseRows(x, rows, d) {
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += x[i * d + j] ** 2;
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let j = 0; j < d; j++) x[i * d + j] *= inv;
  }
  return x;
}

/** The rotation R (d×d) minimising ‖from·R − to‖ (orthogonal Procrustes): R = M (MᵀM)^(−1/2), M = fromᵀ·to. */
export function procrustes(from, to, rows, d) {
  const m = new Float64Array(d * d);
  for (let i = 0; i < rows; i++) for (let j = 0; j < d; j++) {
    const f = from[i * d + j];
    for (let l = 0; l < d; l++) m[j * d + l] += f * to[i * d + l];
  }
  const mtm = new Float64Array(d * d);
  for (let j = 0; j < d; j++) for (let l = 0; l < d; l++) {
    let s = 0;
    for (let k = 0; k < d; k++) s += m[k * d + j] * m[k * d + l];
    mtm[j * d + l] = s;
  }
  const { values, vectors } = symmetricEigen(mtm, d);
  // (MᵀM)^(−1/2) on its range only: a target with directions removed (all-but-the-top) leaves M rank-deficient,
  // and those directions, which have no image, are dropped rather than blown up.
  const inv = new Float64Array(d * d);
  for (let j = 0; j < d; j++) for (let l = 0; l < d; l++) {
    let s = 0;
    for (let k = 0; k < d; k++) if (values[k] > 1e-12 * values[0]) s += (vectors[j * d + k] * vectors[l * d + k]) / Math.sqrt(values[k]);
    inv[j * d + l] = s;
  }
  const r = new Float64Array(d * d);
  for (let j = 0; j < d; j++) for (let l = 0; l < d; l++) {
    let s = 0;
    for (let k = 0; k < d; k++) s += m[j * d + k] * inv[k * d + l];
    r[j * d + l] = s;
  }
  return r;
}

/** rows×d times d×e. */
export function multiply(x, rows, d, y, e) {
  const out = new Float64Array(rows * e);
  for (let i = 0; i < rows; i++) for (let k = 0; k < d; k++) {
    const xik = x[i * d + k];
    if (xik === 0) continue;
    for (let l = 0; l < e; l++) out[i * e + l] += xik * y[k * e + l];
  }
  return out;
}

/** A sparse matrix (CSR) times a dense rows×d block. */
function sparseTimes(s, x, d) {
  const out = new Float64Array(s.rows * d);
  for (let i = 0; i < s.rows; i++) for (let p = s.start[i]; p < s.start[i + 1]; p++) {
    const w = s.value[p], o = s.col[p] * d;
    for (let j = 0; j < d; j++) out[i * d + j] += w * x[o + j];
  }
  return out;
}

/** CSR from (row, col, value) triples; duplicates add. */
export function sparse(rows, cols, triples) {
  const count = new Int32Array(rows + 1);
  for (const [r] of triples) count[r + 1]++;
  for (let i = 0; i < rows; i++) count[i + 1] += count[i];
  const start = Int32Array.from(count);
  const fill = Int32Array.from(count);
  const col = new Int32Array(triples.length), value = new Float64Array(triples.length);
  for (const [r, c, v] of triples) { col[fill[r]] = c; value[fill[r]++] = v; }
  return { rows, cols, start, col, value };
}

export function transpose(s) {
  const triples = [];
  for (let i = 0; i < s.rows; i++) for (let p = s.start[i]; p < s.start[i + 1]; p++) triples.push([s.col[p], i, s.value[p]]);
  return sparse(s.cols, s.rows, triples);
}

/** Ridge least squares toward a start: argmin_X ‖A(X0 + Δ) − Y‖² + λ‖Δ‖², by conjugate gradient on each of the d columns. */
export function ridgeToward(a, x0, y, d, lambda, iterations) {
  const at = transpose(a);
  const r0 = sparseTimes(a, x0, d);
  for (let i = 0; i < r0.length; i++) r0[i] = y[i] - r0[i];
  const b = sparseTimes(at, r0, d);
  const x = new Float64Array(b.length), r = Float64Array.from(b), p = Float64Array.from(b);
  const colDot = (u, v) => {
    const s = new Float64Array(d);
    for (let i = 0; i < u.length; i++) s[i % d] += u[i] * v[i];
    return s;
  };
  let rr = colDot(r, r);
  for (let it = 0; it < iterations; it++) {
    const q = sparseTimes(at, sparseTimes(a, p, d), d);
    for (let i = 0; i < q.length; i++) q[i] += lambda * p[i];
    const pq = colDot(p, q);
    const alpha = rr.map((v, j) => v / Math.max(pq[j], 1e-30));
    for (let i = 0; i < x.length; i++) { x[i] += alpha[i % d] * p[i]; r[i] -= alpha[i % d] * q[i]; }
    const rn = colDot(r, r);
    const beta = rn.map((v, j) => v / Math.max(rr[j], 1e-30));
    for (let i = 0; i < p.length; i++) p[i] = r[i] + beta[i % d] * p[i];
    rr = rn;
  }
  for (let i = 0; i < x.length; i++) x[i] += x0[i];
  return x;
}
