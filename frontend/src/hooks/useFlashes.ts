/**
 * Short-lived labels by key (the "AI decided" badge on a seat, a "+1,000 rebuy" cue):
 * each shows for `ms` from its own start. Every key has its own timer, so a newer
 * flash (another seat's, another notice) never cancels an older one's end, which
 * left a badge up until some later notice happened to clear it.
 */
import { useCallback, useEffect, useRef, useState } from "react";

export interface Flashes<K, V> {
  shown: ReadonlyMap<K, V>;
  flash: (key: K, value: V) => void;
  clear: (key: K) => void;
}

export function useFlashes<K, V>(ms: number): Flashes<K, V> {
  const [shown, setShown] = useState<ReadonlyMap<K, V>>(new Map());
  const timers = useRef(new Map<K, ReturnType<typeof setTimeout>>());
  const clear = useCallback((key: K) => {
    const timer = timers.current.get(key);
    if (timer !== undefined) clearTimeout(timer);
    timers.current.delete(key);
    setShown((current) => {
      if (!current.has(key)) return current;
      const next = new Map(current);
      next.delete(key);
      return next;
    });
  }, []);
  const flash = useCallback(
    (key: K, value: V) => {
      const timer = timers.current.get(key);
      if (timer !== undefined) clearTimeout(timer);
      timers.current.set(
        key,
        setTimeout(() => clear(key), ms),
      );
      setShown((current) => new Map(current).set(key, value));
    },
    [ms, clear],
  );
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);
  return { shown, flash, clear };
}
