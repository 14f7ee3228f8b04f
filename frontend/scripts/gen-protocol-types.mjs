// Writes src/protocol/wire.gen.ts, the wire types of the Showdown protocol, from
// docs/protocol.schema.json (itself generated from the server's pydantic models).
// Run by `npm run gen:protocol`, and before build, typecheck, test and dev, so the
// client's types are always those of the committed schema and never a copy that drifts.
// `--check` fails (exit 1) when the file on disk is not what the schema gives.
import { readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "json-schema-to-typescript";

const here = dirname(fileURLToPath(import.meta.url));
const SCHEMA = resolve(here, "../../docs/protocol.schema.json");
const OUTPUT = resolve(here, "../src/protocol/wire.gen.ts");

const BANNER = `/**
 * GENERATED from docs/protocol.schema.json by frontend/scripts/gen-protocol-types.mjs
 * (json-schema-to-typescript). Do not edit: change the models in protocol/ and run
 * \`python -m protocol --write docs/protocol.schema.json\`; this file is
 * written again before every build, typecheck and test.
 */`;

/**
 * The schema as json-schema-to-typescript should read it:
 * - pydantic gives every property a title ("Chip Unit") and puts a field's description
 *   or default beside its `$ref`; the generator turns each such schema into one more
 *   named type, so only the models ($defs) keep a title and a `$ref` stands alone.
 */
function tidy(node, isDefinition = false) {
  if (Array.isArray(node)) return node.map((item) => tidy(item));
  if (node === null || typeof node !== "object") return node;
  if (typeof node.$ref === "string") return { $ref: node.$ref };
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "title" && !isDefinition) continue;
    if (key === "$defs") {
      out.$defs = Object.fromEntries(
        Object.entries(value).map(([name, def]) => [name, tidy(def, true)]),
      );
    } else {
      out[key] = tidy(value);
    }
  }
  return out;
}

/** Names of the models reachable from `node` through `$ref`s. */
function reachable(schema, node, seen = new Set()) {
  const refs = JSON.stringify(node).matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g);
  for (const [, name] of refs) {
    if (!seen.has(name)) {
      seen.add(name);
      reachable(schema, schema.$defs[name], seen);
    }
  }
  return seen;
}

/**
 * What is required on the wire:
 * - `type` always: every message is told apart by it (pydantic gives it a default).
 * - every field of a model the web client only receives: the server writes all of
 *   them (defaults included), so the client never meets one missing. Models the
 *   client sends keep their optional fields.
 */
function markRequired(schema) {
  const sent = reachable(schema, schema.properties.client);
  for (const [name, def] of Object.entries(schema.$defs)) {
    if (def.type !== "object" || !def.properties) continue;
    const required = new Set(def.required ?? []);
    if (def.properties.type?.const !== undefined) required.add("type");
    if (!sent.has(name)) Object.keys(def.properties).forEach((key) => required.add(key));
    def.required = Object.keys(def.properties).filter((key) => required.has(key));
  }
  return schema;
}

export async function generate() {
  const schema = JSON.parse(await readFile(SCHEMA, "utf8"));
  const cleaned = markRequired(tidy(schema));
  cleaned.title = "ShowdownProtocol";
  return compile(cleaned, "ShowdownProtocol", {
    bannerComment: BANNER,
    additionalProperties: false, // the server sends exactly the model's fields
    ignoreMinAndMaxItems: true, // "at most 16 values" is not a tuple
    unreachableDefinitions: true, // every model gets its type, used in a union or not
    format: true,
    style: { printWidth: 100, trailingComma: "all" },
  });
}

const text = await generate();
const current = await readFile(OUTPUT, "utf8").catch(() => "");
if (process.argv.includes("--check")) {
  if (current !== text) {
    console.error(`${OUTPUT} is not what ${SCHEMA} gives: run npm run gen:protocol`);
    process.exit(1);
  }
} else if (current !== text) {
  await writeFile(OUTPUT, text); // only when it changed: make compares times
}
