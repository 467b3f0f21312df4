import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { DATA_PREPARATION_LISTS } from '@loopdesk/contracts/data-preparation.ts';
import { PATHS, fillPortalPath } from './paths.ts';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { takeNextJob, useRegisteredCount, useStageList } from '../api/queue.ts';
import { UploadArea } from '../components/upload-area.tsx';

type Stage = keyof typeof DATA_PREPARATION_LISTS;

/** The work-stage lists (spec 2 §2, §4 "Lists"), with the screen names of spec 2 §2. */
const STAGES: readonly { stage: Stage; label: string }[] = [
  { stage: 'registered', label: 'Registered' },
  { stage: 'preparationReview', label: 'Preparation review' },
  { stage: 'annotation', label: 'Annotation' },
];

/** One stage's list: a row per document, opening its job. */
function StageList({ stage }: { stage: Stage }) {
  const navigate = useNavigate();
  const toast = useToast();
  const list = useStageList(stage);
  useEffect(() => {
    if (list.isError) {
      toast.error(errorMessage(list.error));
    }
  }, [list.isError, list.error, toast]);
  const items = list.data?.items ?? [];
  if (list.isSuccess && items.length === 0) {
    return <Typography sx={{ p: 2 }}>No documents in this stage.</Typography>;
  }
  return (
    <List aria-label={`${STAGES.find((s) => s.stage === stage)?.label ?? ''} documents`}>
      {items.map((item) => (
        <ListItem key={item.key} disablePadding>
          <ListItemButton
            onClick={() => void navigate(fillPortalPath(PATHS['data-preparation-job'], item.key))}
          >
            <ListItemText
              primary={item.displayName}
              secondary={[item.source, item.code].filter(Boolean).join(' · ')}
            />
            {item.demo === true && <Chip size="small" label="Demo" />}
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}

/** /jobs/data-preparation (spec 2 §2 "Data Preparation Jobs screen"). */
export function DataPreparationRoute() {
  usePageTitle('Data Preparation Jobs');
  const navigate = useNavigate();
  const toast = useToast();
  const count = useRegisteredCount();
  const [stage, setStage] = useState<Stage>('registered');
  const [taking, setTaking] = useState(false);

  const getNext = () => {
    setTaking(true);
    takeNextJob().then(
      (job) => {
        setTaking(false);
        if (job) {
          void navigate(fillPortalPath(PATHS['data-preparation-job'], job.key));
        } else {
          toast.error('There is no free registered job right now.');
        }
      },
      (error: unknown) => {
        setTaking(false);
        toast.error(errorMessage(error));
      },
    );
  };

  const size = count.isError ? 'unknown' : (count.data?.size ?? '…');
  return (
    <Stack spacing={2} sx={{ p: 2, maxWidth: 960 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography role="status">{`There are ${size} registered jobs in the queue.`}</Typography>
        <Button variant="contained" onClick={getNext} disabled={taking}>
          Get next job
        </Button>
      </Stack>
      <UploadArea
        onUploaded={(document) =>
          void navigate(fillPortalPath(PATHS['data-preparation-job'], document.key))
        }
      />
      <Paper>
        <Tabs
          value={stage}
          onChange={(_event, next: Stage) => setStage(next)}
          aria-label="Work stages"
        >
          {STAGES.map(({ stage: value, label }) => (
            <Tab key={value} value={value} label={label} />
          ))}
        </Tabs>
        <Box role="tabpanel" aria-label={STAGES.find((s) => s.stage === stage)?.label}>
          <StageList stage={stage} />
        </Box>
      </Paper>
    </Stack>
  );
}
