/** How statistics read: shares as whole percents, ratios to one decimal, "–" for no data yet. */
export const NO_DATA = "–";

export function pct(share: number | null | undefined): string {
  return share === null || share === undefined ? NO_DATA : `${Math.round(share * 100)}`;
}

/** "25%", or the dash alone when there is no data. */
export function pctLabel(share: number | null | undefined): string {
  const text = pct(share);
  return text === NO_DATA ? text : `${text}%`;
}

export function ratio(value: number | null | undefined): string {
  return value === null || value === undefined ? NO_DATA : value.toFixed(1);
}

export function signed(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined) return NO_DATA;
  const text = value.toFixed(digits);
  return value > 0 ? `+${text}` : text;
}

export function handsLabel(n: number): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? "hand" : "hands"}`;
}
