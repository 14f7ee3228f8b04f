export * from "./types";
export * from "./messages";
export * from "./client";
export * from "./rest";
