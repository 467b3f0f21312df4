import { useParams } from 'react-router';
import { usePageTitle } from '../../../lib/page-title.ts';
import { AddTaskScreen } from '../components/add-task-screen.tsx';
import { TASK_TITLE } from '../utils/messages.ts';

/** `/jobs/async/pipelines/{pipelineId}/_add_task`: add a condition job (spec 3 §2). */
export function AddTaskRoute() {
  usePageTitle(TASK_TITLE);
  const { pipelineId = '' } = useParams();
  return <AddTaskScreen key={pipelineId} pipelineId={pipelineId} />;
}
