import { useCallback, useEffect, useRef, useState } from "react";

/** An element's content size, kept current with a ResizeObserver (0x0 where there is none). */
export function useElementSize<T extends HTMLElement>(): [(node: T | null) => void, { width: number; height: number }] {
  const [size, setSize] = useState({ width: 0, height: 0 });
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((node: T | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!node || typeof ResizeObserver === "undefined") return;
    const measure = () => {
      const rect = node.getBoundingClientRect();
      setSize((s) => (Math.abs(s.width - rect.width) < 1 && Math.abs(s.height - rect.height) < 1 ? s : { width: rect.width, height: rect.height }));
    };
    observer.current = new ResizeObserver(measure);
    observer.current.observe(node);
    measure();
  }, []);
  useEffect(() => () => observer.current?.disconnect(), []);
  return [ref, size];
}
