import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { EntityExtractionResult } from '@loopdesk/contracts/nlp.ts';
import { useMemo, useState } from 'react';
import { useToast } from '../../../components/toast-context.ts';
import { useEvaluateText } from '../api/post-evaluate.ts';
import { EVALUATION_ERROR, failureMessage } from '../utils/messages.ts';
import {
  LegendChip,
  NORMALISED_COLOUR,
  RECOGNISED_COLOUR,
  ResolvedText,
} from './resolved-text.tsx';

/** Spec 3 §9: rows of the entity test box. */
export const ENTITY_TEXT_ROWS = 6;

type View = 'entities' | 'phrases';

/**
 * `/test/entity-recognition` (spec 3 §2): a text to evaluate and the recognised entities or
 * phrases as chips.
 */
export function EntityRecognitionScreen() {
  const toast = useToast();
  const evaluate = useEvaluateText();
  const [text, setText] = useState('');
  const [view, setView] = useState<View>('entities');
  const [answer, setAnswer] = useState<EntityExtractionResult | null>(null);
  const result = answer?.resolved ?? null;
  // Where the negated entities start, so their chips look negated (issue 20 #26).
  const negatedStarts = useMemo(
    () => new Set((answer?.entities ?? []).filter((e) => e.negated).map((entity) => entity.start)),
    [answer],
  );

  const submit = () => {
    // A new text's result replaces the last one; a failure shows none (spec 3 §8). A refused
    // text (empty, over the limit) gets the server's reason instead of 'Service unavailable'.
    setAnswer(null);
    evaluate.mutate(text, {
      onSuccess: (next) => setAnswer(next),
      onError: (error) => toast.error(failureMessage(error, EVALUATION_ERROR)),
    });
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: 960 }}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <TextField
          label="Input Text"
          placeholder="Enter text here"
          multiline
          rows={ENTITY_TEXT_ROWS}
          fullWidth
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
          <Button variant="contained" onClick={submit} disabled={evaluate.isPending}>
            SUBMIT TEXT
          </Button>
        </Box>
      </Paper>
      {evaluate.isPending ? <LinearProgress aria-label="Recognising entities" /> : null}
      {result ? (
        <Paper
          variant="outlined"
          sx={{ p: 2 }}
          component="section"
          aria-labelledby="ner-result-title"
        >
          <Box
            sx={{
              display: 'flex',
              gap: 2,
              alignItems: 'center',
              flexWrap: 'wrap',
              mb: 2,
            }}
          >
            <Typography id="ner-result-title" variant="h6" component="h2" sx={{ flex: 1 }}>
              Named Entity Recognition Result
            </Typography>
            <Stack direction="row" spacing={1} aria-label="Legend" role="group">
              <LegendChip label="Recognised Entity" colour={RECOGNISED_COLOUR} />
              <LegendChip label="Normalised Entity" colour={NORMALISED_COLOUR} />
              <LegendChip label="Negated" colour={RECOGNISED_COLOUR} negated />
            </Stack>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={view}
              onChange={(_event, next: View | null) => {
                if (next) {
                  setView(next);
                }
              }}
              aria-label="Show"
            >
              <ToggleButton value="entities">Entities</ToggleButton>
              <ToggleButton value="phrases">Phrases</ToggleButton>
            </ToggleButtonGroup>
          </Box>
          {view === 'entities' ? (
            <ResolvedText
              segments={result.resolvedEntities}
              label="Entities"
              negatedStarts={negatedStarts}
            />
          ) : (
            <ResolvedText segments={result.resolvedPhrases} label="Phrases" />
          )}
        </Paper>
      ) : null}
    </Stack>
  );
}
