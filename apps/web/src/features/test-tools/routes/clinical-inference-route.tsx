import { usePageTitle } from '../../../lib/page-title.ts';
import { ClinicalInferenceScreen } from '../components/clinical-inference-screen.tsx';

/** `/test/clinical-inference`: the Clinical Inference test tool (spec 3 §2). */
export function ClinicalInferenceRoute() {
  usePageTitle('Clinical Inference');
  return <ClinicalInferenceScreen />;
}
