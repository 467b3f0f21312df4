import { usePageTitle } from '../../../lib/page-title.ts';
import { FederatedScreen, type FederatedScreenProps } from '../components/federated-screen.tsx';

/** `/jobs/federated`: the Federated Jobs screen (spec 1 §2). */
export function FederatedRoute(props: FederatedScreenProps) {
  usePageTitle('Federated Jobs');
  return <FederatedScreen {...props} />;
}
