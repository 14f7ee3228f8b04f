/**
 * The client's wire types are the server's: generated from docs/protocol.schema.json
 * (itself generated from protocol/messages.py) into wire.gen.ts before every build,
 * typecheck and test, and re-exported by types.ts, never written by hand.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import schemaText from "../../../docs/protocol.schema.json?raw";
import generatedText from "./wire.gen.ts?raw";
import typesText from "./types.ts?raw";
import type * as wire from "./wire.gen";
import type { ClientCommand } from "./messages";
import type { Change, HandEvent, TableConfig, TableView, Welcome } from "./types";
import { event, makeView } from "../test/fixtures";

interface SchemaModel {
  properties?: Record<string, unknown>;
  required?: string[];
}
const schema = JSON.parse(schemaText) as { $defs: Record<string, SchemaModel> };
const models = Object.keys(schema.$defs);

describe("the generated wire types", () => {
  it("declare every model of the schema", () => {
    const declared = new Set(
      [...generatedText.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]),
    );
    const missing = models.filter((name) => !declared.has(name));
    expect(missing).toEqual([]);
  });

  it("are not written again by hand in types.ts", () => {
    const handWritten = models.filter((name) =>
      new RegExp(`^export (?:interface|type) ${name}\\b`, "m").test(typesText),
    );
    // Only decoded shapes built on the generated ones are declared there.
    expect(handWritten).toEqual(["ChatMessage", "HandRecord", "SeatRecord"]);
    for (const name of handWritten) {
      expect(typesText).toContain(`${name} as Wire${name}`);
    }
    expect(typesText).toContain('from "./wire.gen"');
  });

  it("are the schema's, field for field", () => {
    // A view as the server sends it has exactly the schema's fields (a fixture that
    // drifts from the server fails here as well as in the type check).
    const view = makeView();
    expect(Object.keys(view).sort()).toEqual(Object.keys(schema.$defs.TableView?.properties ?? {}).sort());
    expect(Object.keys(view.config).sort()).toEqual(
      Object.keys(schema.$defs.TableConfig?.properties ?? {}).sort(),
    );
    expect(Object.keys(event({ kind: "fold", street: "flop" })).sort()).toEqual(
      Object.keys(schema.$defs.HandEvent?.properties ?? {}).sort(),
    );
  });

  it("type what the server sends as always present and what the client sends as optional", () => {
    expectTypeOf<TableView>().toEqualTypeOf<wire.TableView>();
    expectTypeOf<TableConfig["ante_mode"]>().toEqualTypeOf<"every_seat" | "big_blind">();
    expectTypeOf<TableConfig["raise_cap"]>().toEqualTypeOf<number | null>();
    expectTypeOf<HandEvent["amount"]>().toEqualTypeOf<number | null>();
    expectTypeOf<Welcome["protocol"]>().toEqualTypeOf<number>();
    expectTypeOf<Change["kind"]>().toEqualTypeOf<
      | "sit" | "stand" | "sit_out" | "sit_back" | "rebuy" | "act" | "hand_start" | "restore" | "show"
      // the host's events (#34)
      | "seat_request" | "seat_rejected" | "remove" | "pause" | "resume" | "settings"
      | "bot_style" | "adjust" | "host"
      // home-game rules (#34)
      | "runout_vote" | "rabbit_hunt" | "bomb_pot" | "straddle"
    >();
    expectTypeOf<Extract<ClientCommand, { type: "act" }>["amount"]>().toEqualTypeOf<
      number | null | undefined
    >();
    expectTypeOf<Extract<ClientCommand, { type: "sit" }>["buy_in"]>().toEqualTypeOf<number>();
  });
});
