import { usePageTitle } from '../../../lib/page-title.ts';
import { ExceptionScreen, type ExceptionScreenProps } from '../components/exception-screen.tsx';

/** `/jobs/exception`: the Exception Jobs screen (spec 2 §2). */
export function ExceptionRoute(props: ExceptionScreenProps) {
  usePageTitle('Exception Jobs');
  return <ExceptionScreen {...props} />;
}
