import { createContext, useContext, useEffect } from 'react';

/** The top bar's title when no screen sets one (spec 1 §2 Shell). */
export const DEFAULT_PAGE_TITLE = 'Dashboard';

/** Setter provided by the shell; screens reach it through usePageTitle. */
export const PageTitleContext = createContext<(title: string) => void>(() => undefined);

/** Shows `title` in the top bar while the calling screen is mounted. */
export function usePageTitle(title: string): void {
  const setTitle = useContext(PageTitleContext);
  useEffect(() => {
    setTitle(title);
    return () => setTitle(DEFAULT_PAGE_TITLE);
  }, [setTitle, title]);
}
