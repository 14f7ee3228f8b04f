import { useEffect, useRef } from "react";

/**
 * Keep the nearest scrollable ancestor of the returned ref scrolled to the
 * bottom when `key` changes (new log lines), without scrolling the page.
 */
export function useStickToBottom<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T | null>(null);
  useEffect(() => {
    let node: HTMLElement | null = ref.current?.parentElement ?? null;
    while (node && node !== document.body) {
      const style = window.getComputedStyle(node);
      if (/(auto|scroll)/.test(style.overflowY) && node.scrollHeight > node.clientHeight) {
        node.scrollTop = node.scrollHeight;
        return;
      }
      node = node.parentElement;
    }
  }, [key]);
  return ref;
}
