import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TaskScreenKind } from '@loopdesk/contracts/async-jobs.ts';
import type { ComponentType } from 'react';
import { useNavigate } from 'react-router';
import { DASHBOARD_PATH } from '../utils/messages.ts';
import { noJobFound } from '../utils/task-screens.ts';
import {
  COMPLICATIONS,
  COMPLICATIONS_APPROVAL,
  ListTaskScreen,
  MEDICATIONS,
  QUESTIONS,
  QUESTIONS_APPROVAL,
  REPHRASE,
  SYMPTOMS,
  type ListScreenConfig,
} from './list-task-screen.tsx';
import { AnnotationScreen } from './annotation-screen.tsx';
import { ConversationLabellingScreen } from './conversation-labelling-screen.tsx';
import { DifferentialScreen } from './differential-screen.tsx';
import { LocationScreen } from './location-screen.tsx';
import { NormalisationScreen } from './normalisation-screen.tsx';
import { ObservationsScreen } from './observations-screen.tsx';
import { RelationshipsScreen } from './relationships-screen.tsx';
import { RephraseApprovalScreen } from './rephrase-approval-screen.tsx';
import type { TaskScreenProps } from './task-layout.tsx';

function listScreen(config: ListScreenConfig): ComponentType<TaskScreenProps> {
  return function ListScreen(props: TaskScreenProps) {
    return <ListTaskScreen {...props} config={config} />;
  };
}

/** Every screen of spec 3 §2 "Task screen selection", by the kind a pipeline step names. */
const SCREENS: Record<TaskScreenKind, ComponentType<TaskScreenProps>> = {
  rephrase: listScreen(REPHRASE),
  'rephrase.approval': RephraseApprovalScreen,
  annotation: (props) => <AnnotationScreen {...props} approval={false} />,
  'annotation.approval': (props) => <AnnotationScreen {...props} approval />,
  normalisation: NormalisationScreen,
  observations: ObservationsScreen,
  relationships: (props) => <RelationshipsScreen {...props} approval={false} />,
  'relationships.approval': (props) => <RelationshipsScreen {...props} approval />,
  complications: listScreen(COMPLICATIONS),
  'complications.approval': listScreen(COMPLICATIONS_APPROVAL),
  questions: listScreen(QUESTIONS),
  'questions.approval': listScreen(QUESTIONS_APPROVAL),
  location: (props) => <LocationScreen {...props} review={false} />,
  'location.review': (props) => <LocationScreen {...props} review />,
  differential: DifferentialScreen,
  'conversation.annotation': ConversationLabellingScreen,
  medications: listScreen(MEDICATIONS),
  symptoms: listScreen(SYMPTOMS),
};

export interface TaskScreenChoice extends TaskScreenProps {
  /** The screen the server names for the task's step (`screenOf`); undefined: none. */
  screen: TaskScreenKind | undefined;
}

/** Shows the task on the screen its step names (spec 3 §2), or the generic fallback. */
export function TaskScreen({ screen, ...props }: TaskScreenChoice) {
  const navigate = useNavigate();
  if (screen) {
    const Screen = SCREENS[screen];
    return <Screen {...props} />;
  }
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Typography>{noJobFound(props.task)}</Typography>
      <div>
        <Button variant="outlined" onClick={() => void navigate(DASHBOARD_PATH)}>
          Back to the dashboard
        </Button>
      </div>
    </Stack>
  );
}
