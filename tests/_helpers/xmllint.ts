/**
 * `xmllint` (libxml2) for tests: schema validation, and XPath to read a document back through a
 * real XML parser rather than regexes. Needs `xmllint` on PATH (Debian: libxml2-utils).
 *
 * @module
 */

/** What `xmllint --schema` said. */
export interface XmlValidation {
  valid: boolean;
  /** The validity errors, one a line, without the closing "fails to validate" line. */
  errors: string[];
}

/**
 * Validates `xml` against the XML Schema at `xsdPath`.
 *
 * @example
 * ```ts
 * import { validateXml } from "./xmllint.ts";
 * // const { valid, errors } = await validateXml(renderJunit(result), schemas.jenkins);
 * ```
 */
export async function validateXml(xml: string, xsdPath: string): Promise<XmlValidation> {
  const out = await xmllint(["--noout", "--schema", xsdPath, "-"], xml);
  const errors = out.stderr.split("\n").filter((l) =>
    l.trim() !== "" && !/^- (validates|fails to validate)$/.test(l)
  );
  return { valid: out.code === 0, errors };
}

/**
 * Evaluates an XPath expression that yields a string or number (`string(...)`, `count(...)`).
 *
 * @example
 * ```ts
 * import { xpath } from "./xmllint.ts";
 * await xpath('<a b="x &amp; y"/>', "string(/a/@b)"); // "x & y"
 * ```
 */
export async function xpath(xml: string, expression: string): Promise<string> {
  const out = await xmllint(["--xpath", expression, "-"], xml);
  // An empty string() result exits 10 ("XPath set is empty") on some libxml2 versions.
  if (out.code !== 0 && out.code !== 10) {
    throw new Error(`xmllint --xpath ${expression} failed (${out.code}): ${out.stderr}`);
  }
  return out.stdout.replace(/\n$/, "");
}

async function xmllint(
  args: string[],
  stdin: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("xmllint", { args, stdin: "piped", stdout: "piped", stderr: "piped" })
      .spawn();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new Error("xmllint not found: install libxml2-utils");
    }
    throw e;
  }
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const out = await child.output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}
