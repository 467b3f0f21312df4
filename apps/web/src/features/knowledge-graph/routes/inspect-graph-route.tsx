import { usePageTitle } from '../../../lib/page-title.ts';
import { InspectGraphScreen } from '../components/inspect-graph-screen.tsx';

/** `/knowledge/inspect/graph`: the knowledge-graph condition inspector (spec 3 §2). */
export function InspectGraphRoute() {
  usePageTitle('Inspect Knowledge Graph');
  return <InspectGraphScreen />;
}
