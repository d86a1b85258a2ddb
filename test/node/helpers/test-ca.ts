// A certificate authority of the test's own, made with node:crypto alone: a P-256 CA certificate and a server
// certificate it signs for localhost and 127.0.0.1, DER-encoded by hand (X.509 v3, RFC 5280). Trusted only by a
// fetch told to (the `ca` option), so an https server on loopback can stand in for a public one.
import { generateKeyPairSync, randomBytes, sign, X509Certificate, type KeyObject } from "node:crypto";

const concat = (...parts: Uint8Array[]) => Buffer.concat(parts);

function der(tag: number, ...content: Uint8Array[]): Buffer {
  const body = concat(...content);
  const n = body.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return concat(Buffer.from([tag, ...length]), body);
}

const seq = (...c: Uint8Array[]) => der(0x30, ...c);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split(".").map(Number);
  const bytes = [40 * a + b];
  for (const v of rest) {
    const chunk = [v & 0x7f];
    for (let x = v >> 7; x > 0; x >>= 7) chunk.unshift((x & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}

const name = (cn: string) => seq(der(0x31, seq(oid("2.5.4.3"), der(0x0c, Buffer.from(cn)))));
const utcTime = (d: Date) => der(0x17, Buffer.from(d.toISOString().replace(/[-:T]/g, "").slice(2, 14) + "Z"));
const ECDSA_SHA256 = seq(oid("1.2.840.10045.4.3.2"));
const extension = (id: string, critical: boolean, value: Buffer) => seq(oid(id), ...(critical ? [der(0x01, Buffer.from([0xff]))] : []), der(0x04, value));

function certificate(subject: string, issuer: string, publicKey: KeyObject, signer: KeyObject, extensions: Buffer[]): string {
  const now = Date.now();
  const serial = randomBytes(8);
  serial[0] &= 0x7f;
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, serial),
    ECDSA_SHA256,
    name(issuer),
    seq(utcTime(new Date(now - 60_000)), utcTime(new Date(now + 24 * 60 * 60_000))),
    name(subject),
    publicKey.export({ type: "spki", format: "der" }),
    der(0xa3, seq(...extensions)),
  );
  const cert = seq(tbs, ECDSA_SHA256, der(0x03, Buffer.from([0]), sign("sha256", tbs, signer)));
  return `-----BEGIN CERTIFICATE-----\n${cert.toString("base64").replace(/.{64}/g, "$&\n")}\n-----END CERTIFICATE-----\n`;
}

/** `ca`: the CA certificate to trust (PEM); `cert` and `key`: the server's, for localhost and 127.0.0.1. */
export function testCa(): { ca: string; cert: string; key: string } {
  const caKeys = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const serverKeys = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const ca = certificate("motebit test CA", "motebit test CA", caKeys.publicKey, caKeys.privateKey, [extension("2.5.29.19", true, seq(der(0x01, Buffer.from([0xff]))))]);
  const altNames = seq(der(0x82, Buffer.from("localhost")), der(0x87, Buffer.from([127, 0, 0, 1])));
  const cert = certificate("localhost", "motebit test CA", serverKeys.publicKey, caKeys.privateKey, [extension("2.5.29.19", true, seq()), extension("2.5.29.17", false, altNames)]);
  // Parsed back by node:crypto: a malformed encoding fails here, not as a puzzling TLS error later.
  if (!new X509Certificate(cert).verify(new X509Certificate(ca).publicKey)) throw new Error("the test CA did not sign the server certificate");
  return { ca, cert, key: serverKeys.privateKey.export({ type: "pkcs8", format: "pem" }) as string };
}
