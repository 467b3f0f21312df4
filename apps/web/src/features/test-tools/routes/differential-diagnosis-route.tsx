import { usePageTitle } from '../../../lib/page-title.ts';
import { DifferentialDiagnosisScreen } from '../components/differential-diagnosis-screen.tsx';

/** `/test/differential-diagnosis`: the Differential Diagnosis test tool (spec 3 §2). */
export function DifferentialDiagnosisRoute() {
  usePageTitle('Differential Diagnosis');
  return <DifferentialDiagnosisScreen />;
}
