import Stack from '@mui/material/Stack';
import { OBSERVATIONS_LOAD_ERROR } from '../utils/messages.ts';
import { checkSubmission } from '../utils/task-screens.ts';
import { ConceptMultiPicker, type ConceptChoice } from './concept-picker.tsx';
import { TaskLayout, type TaskScreenProps } from './task-layout.tsx';
import { Transcript, conversationOf, patientLine } from './transcript.tsx';
import { listDraft, useDraftState } from '../hooks/use-draft-state.ts';

/**
 * Conversation labelling (conversation.annotation, spec 3 §2): the conversation, and two
 * searchable multi-selects, Decoded Observations and Extended Observations, that search from 3
 * typed characters.
 */
export function ConversationLabellingScreen(props: TaskScreenProps) {
  const [decoded, setDecoded] = useDraftState<ConceptChoice[]>('decoded', () => [], listDraft());
  const [extended, setExtended] = useDraftState<ConceptChoice[]>('extended', () => [], listDraft());
  return (
    <TaskLayout
      {...props}
      title="Conversation Labelling Job"
      subtitle={patientLine(props.task)}
      build={() =>
        checkSubmission('conversation.annotation', {
          decodedObservations: decoded,
          extendedObservations: extended,
        })
      }
    >
      <Stack spacing={2}>
        <Transcript items={conversationOf(props.task)} />
        <ConceptMultiPicker
          label="Decoded Observations"
          value={decoded}
          onChange={setDecoded}
          errorMessage={OBSERVATIONS_LOAD_ERROR}
        />
        <ConceptMultiPicker
          label="Extended Observations"
          value={extended}
          onChange={setExtended}
          errorMessage={OBSERVATIONS_LOAD_ERROR}
        />
      </Stack>
    </TaskLayout>
  );
}
