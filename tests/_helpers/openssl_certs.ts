/**
 * Certificates made by the `openssl` command in a test, as people make them: the self-signed one
 * `openssl req -x509` gives unless told otherwise (marked CA:TRUE), and expired ones, dated in the
 * past by `openssl ca -selfsign -startdate -enddate` (`req -x509 -days` takes no past).
 *
 * @module
 */
import { join } from "node:path";

/** A certificate and its key, as PEM text. */
export interface CertPair {
  cert: string;
  key: string;
}

async function openssl(dir: string, args: string[]): Promise<void> {
  const out = await new Deno.Command("openssl", {
    args,
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  if (!out.success) {
    throw new Error(`openssl ${args[0]} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
}

async function pair(dir: string, cert: string, key: string): Promise<CertPair> {
  return {
    cert: await Deno.readTextFile(join(dir, cert)),
    key: await Deno.readTextFile(join(dir, key)),
  };
}

/**
 * The certificate of the issue: `openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=127.0.0.1
 * -addext subjectAltName=IP:127.0.0.1`, which marks it CA:TRUE.
 */
export async function selfSignedCaTrue(): Promise<CertPair> {
  const dir = await Deno.makeTempDir();
  try {
    await openssl(dir, [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1"],
      ...["-addext", "subjectAltName=IP:127.0.0.1", "-keyout", "key.pem", "-out", "cert.pem"],
    ]);
    return await pair(dir, "cert.pem", "key.pem");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * A self-signed certificate for 127.0.0.1 valid only in January 2020, CA:TRUE or CA:FALSE.
 */
export async function expiredSelfSigned(ca: boolean): Promise<CertPair> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      join(dir, "ca.cnf"),
      "[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\n" +
        "default_md = sha256\npolicy = p\ncopy_extensions = copy\nunique_subject = no\n" +
        "[p]\ncommonName = supplied\n",
    );
    await Deno.writeTextFile(join(dir, "index.txt"), "");
    await Deno.writeTextFile(join(dir, "serial"), "01\n");
    await openssl(dir, [
      ...["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
      ...["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
      ...["-addext", `basicConstraints=critical,CA:${ca ? "TRUE" : "FALSE"}`],
      ...["-keyout", "key.pem", "-out", "req.csr"],
    ]);
    await openssl(dir, [
      ...["ca", "-batch", "-config", "ca.cnf", "-selfsign", "-keyfile", "key.pem"],
      ...["-in", "req.csr", "-out", "cert.pem", "-notext"],
      ...["-startdate", "20200101000000Z", "-enddate", "20200201000000Z"],
    ]);
    return await pair(dir, "cert.pem", "key.pem");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
