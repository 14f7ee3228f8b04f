/**
 * Chips are integers; the table's chip_unit turns them into money for display
 * (blinds 50/100 with chip_unit 0.01 read 0.50/1.00). Only the UI does this.
 */

export interface ChipUnit {
  /** decimals to show */
  decimals: number;
  /** chip_unit * 10^decimals, an integer */
  scaled: number;
}

export function parseUnit(unit: string | number | null | undefined): ChipUnit {
  const text = unit === null || unit === undefined ? "1" : typeof unit === "number" ? String(unit) : unit.trim();
  // Decimal may come as "1E+1" or "0.010"; normalise through Number for exponents.
  let normal = /e/i.test(text) ? Number(text).toString() : text;
  if (!/^\d+(\.\d+)?$/.test(normal)) normal = "1";
  const [whole = "0", frac = ""] = normal.split(".");
  const trimmed = frac.replace(/0+$/, "");
  const decimals = trimmed.length;
  const scaled = Number(whole + trimmed) || 1;
  return { decimals, scaled };
}

const formatters = new Map<number, Intl.NumberFormat>();
function formatterFor(decimals: number): Intl.NumberFormat {
  let f = formatters.get(decimals);
  if (!f) {
    f = new Intl.NumberFormat("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    formatters.set(decimals, f);
  }
  return f;
}

/** 1250 chips at unit 1 -> "1,250"; 1250 at unit 0.01 -> "12.50". */
export function formatChips(chips: number, unit: string | number | null | undefined = 1): string {
  const { decimals, scaled } = parseUnit(unit);
  const value = (chips * scaled) / 10 ** decimals;
  return formatterFor(decimals).format(value);
}

/** Short form for tight spots: 12,500 -> "12.5K", 2,000,000 -> "2M" (unit applied). */
export function formatChipsShort(chips: number, unit: string | number | null | undefined = 1): string {
  const { decimals, scaled } = parseUnit(unit);
  const value = (chips * scaled) / 10 ** decimals;
  const abs = Math.abs(value);
  if (abs >= 1_000_000) return `${trimZeros((value / 1_000_000).toFixed(2))}M`;
  if (abs >= 100_000) return `${trimZeros((value / 1000).toFixed(1))}K`;
  return formatChips(chips, unit);
}

function trimZeros(s: string): string {
  return s.includes(".") ? s.replace(/\.?0+$/, "") : s;
}

/** Typed money ("12.50", "1,250") -> chips (integer), or null when unreadable. */
export function parseChips(text: string, unit: string | number | null | undefined = 1): number | null {
  const cleaned = text.replace(/[,\s]/g, "");
  if (!/^\d*(\.\d*)?$/.test(cleaned) || cleaned === "" || cleaned === ".") return null;
  const { decimals, scaled } = parseUnit(unit);
  const value = Number(cleaned);
  if (!Number.isFinite(value)) return null;
  return Math.round((value * 10 ** decimals) / scaled);
}

/** Chips as big blinds, one decimal: "12.5 bb". */
export function formatBB(chips: number, bigBlind: number): string {
  if (!bigBlind) return "";
  const bb = chips / bigBlind;
  // Under a big blind, two significant digits (1 chip at 100 is "0.01 bb", not "0.0 bb");
  // above, one decimal, dropped when it is 0 ("14 bb", not "14.0 bb").
  const shown = Number.isInteger(bb) ? bb : Math.abs(bb) < 1 ? Number(bb.toPrecision(2)) : Number(bb.toFixed(1));
  return `${shown} bb`;
}

/** The money value of chips as a plain number, for input fields. */
export function chipsToInput(chips: number, unit: string | number | null | undefined = 1): string {
  const { decimals, scaled } = parseUnit(unit);
  return ((chips * scaled) / 10 ** decimals).toFixed(decimals);
}
