/**
 * tailgate's version, read from deno.json so there is one place to bump it.
 *
 * @module
 */
import denoJson from "../deno.json" with { type: "json" };

/**
 * The running tailgate version.
 */
export const TAILGATE_VERSION: string = denoJson.version;
