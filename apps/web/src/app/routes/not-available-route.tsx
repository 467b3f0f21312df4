import { NotAvailablePage } from '../../components/not-available-page.tsx';

/** Lazy entry of every screen a later issue builds. */
export function NotAvailableRoute({ title }: { title: string }) {
  return <NotAvailablePage title={title} />;
}
