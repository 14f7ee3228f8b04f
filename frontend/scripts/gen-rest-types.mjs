// Writes src/protocol/rest.gen.ts, the bodies of the REST API, from docs/openapi.json
// (itself generated from the server's routes: `python -m backend.openapi_doc --write
// docs/openapi.json`). Run with gen:protocol before build, typecheck, test and dev, so
// the client's REST types are those of the committed document, never a copy that drifts.
// OpenAPI 3.1's schemas are JSON Schema: json-schema-to-typescript compiles them as it
// does the socket protocol's. `--check` fails (exit 1) when the file on disk is stale.
import { readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "json-schema-to-typescript";

const here = dirname(fileURLToPath(import.meta.url));
const DOCUMENT = resolve(here, "../../docs/openapi.json");
const OUTPUT = resolve(here, "../src/protocol/rest.gen.ts");

const BANNER = `/**
 * GENERATED from docs/openapi.json by frontend/scripts/gen-rest-types.mjs
 * (json-schema-to-typescript). Do not edit: change the routes or their models in
 * backend/ and run \`python -m backend.openapi_doc --write docs/openapi.json\`; this
 * file is written again before every build, typecheck and test.
 */`;

/** Component refs as JSON Schema `$defs` refs; only models keep their titles. */
function tidy(node, isDefinition = false) {
  if (Array.isArray(node)) return node.map((item) => tidy(item));
  if (node === null || typeof node !== "object") return node;
  if (typeof node.$ref === "string") {
    return { $ref: node.$ref.replace("#/components/schemas/", "#/$defs/") };
  }
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "title" && !isDefinition) continue;
    out[key] = tidy(value);
  }
  return out;
}

/** Names of the schemas a request body refers to: what the client sends. */
function sentSchemas(document) {
  const names = new Set();
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      const text = JSON.stringify(operation.requestBody ?? {});
      for (const [, name] of text.matchAll(/#\/components\/schemas\/([^"]+)"/g)) names.add(name);
    }
  }
  return names;
}

/**
 * Every field of a body the client only receives is required: the server writes all
 * of them, defaults included. Request bodies keep their optional fields.
 */
function markRequired(defs, sent) {
  for (const [name, def] of Object.entries(defs)) {
    if (def.type !== "object" || !def.properties || sent.has(name)) continue;
    def.required = Object.keys(def.properties);
  }
}

export async function generate() {
  const document = JSON.parse(await readFile(DOCUMENT, "utf8"));
  const defs = Object.fromEntries(
    Object.entries(document.components.schemas).map(([name, def]) => [name, tidy(def, true)]),
  );
  markRequired(defs, sentSchemas(document));
  return compile({ title: "ShowdownRest", $defs: defs }, "ShowdownRest", {
    bannerComment: BANNER,
    additionalProperties: false,
    ignoreMinAndMaxItems: true,
    unreachableDefinitions: true,
    format: true,
    style: { printWidth: 100, trailingComma: "all" },
  });
}

const text = await generate();
const current = await readFile(OUTPUT, "utf8").catch(() => "");
if (process.argv.includes("--check")) {
  if (current !== text) {
    console.error(`${OUTPUT} is not what ${DOCUMENT} gives: run npm run gen:rest`);
    process.exit(1);
  }
} else if (current !== text) {
  await writeFile(OUTPUT, text); // only when it changed: make compares times
}
