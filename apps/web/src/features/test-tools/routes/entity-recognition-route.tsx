import { usePageTitle } from '../../../lib/page-title.ts';
import { EntityRecognitionScreen } from '../components/entity-recognition-screen.tsx';

/** `/test/entity-recognition`: the Entity Recognition test tool (spec 3 §2). */
export function EntityRecognitionRoute() {
  usePageTitle('Entity Recognition');
  return <EntityRecognitionScreen />;
}
