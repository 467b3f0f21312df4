import { usePageTitle } from '../../../lib/page-title.ts';
import { SummaryScreen } from '../components/summary-screen.tsx';

/** `/jobs/clinical-summary`: the Clinical Summary Review Jobs screen (spec 2 §2). */
export function ClinicalSummaryRoute() {
  usePageTitle('Clinical Summary Review Jobs');
  return <SummaryScreen />;
}
