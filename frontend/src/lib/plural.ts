/** "1 hand", "2 hands", "1,000 hands": a count and its noun, pluralised. */
export function plural(count: number, noun: string, many = `${noun}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? noun : many}`;
}
