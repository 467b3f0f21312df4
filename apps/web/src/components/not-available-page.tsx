import { usePageTitle } from '../lib/page-title.ts';
import { PlainPage } from './plain-page.tsx';

/** What a screen built by a later issue shows instead of pretending (no fake data). */
export const NOT_AVAILABLE_MESSAGE = 'This screen is not available yet.';

export function NotAvailablePage({ title }: { title: string }) {
  usePageTitle(title);
  return <PlainPage title={title} message={NOT_AVAILABLE_MESSAGE} />;
}
