import { PlainPage } from '../../components/plain-page.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function NotFoundRoute() {
  usePageTitle('Page not found');
  return <PlainPage title="Page not found" message="There is no screen at this address." />;
}
