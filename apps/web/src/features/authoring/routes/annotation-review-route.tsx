import Box from '@mui/material/Box';
import InputBase from '@mui/material/InputBase';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { PATHS } from '@loopdesk/contracts/portal-routes.ts';
import type {
  AnnotatedEntity,
  ReviewAnnotationsBody,
  ReviewDecision,
} from '@loopdesk/contracts/routes/authoring.ts';
import type { RelationshipRow } from '@loopdesk/contracts/data-preparation.ts';
import { memo, useCallback, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { TaskHeader } from '../../../components/task-header.tsx';
import { useToast, type Toast } from '../../../components/toast-context.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { TakenJob } from '../components/taken-job.tsx';
import { useReleaseOnLeave, useReview, type AuthoringJob } from '../api/authoring.ts';
import { DocumentText, type DocumentTextHandle } from '../components/document-text.tsx';
import { EntityEditor } from '../components/entity-editor.tsx';
import { ConflictAlert, SaveBar } from '../components/save-bar.tsx';
import { useSaveFailure } from '../hooks/use-save-failure.ts';
import { stateFromSet, type EntityData, type ScreenEntity } from '../model/annotations.ts';
import { splitBlocks } from '../model/blocks.ts';
import { Legend } from './annotation-task-route.tsx';

/** Messages of the review screen (not in the spec: issue 13 item 5). */
export const REVIEW_MESSAGES = {
  approved: 'Annotations approved: they are in the knowledge base.',
  returned: 'Document returned to the annotator.',
  commentRequired: 'Say what to change: a comment is required to return the document.',
} as const;

const DECISIONS: readonly { value: ReviewDecision; label: string }[] = [
  { value: 'accept', label: 'Accept' },
  { value: 'change', label: 'Change' },
  { value: 'reject', label: 'Reject' },
];

interface EntityReviewState {
  decision: ReviewDecision;
  /** The changed entity, for 'change'. */
  changed?: EntityData;
}
interface RelationshipReviewState {
  decision: ReviewDecision;
  weight: string;
}

function Decision({
  value,
  onChange,
  label,
}: {
  value: ReviewDecision;
  onChange: (next: ReviewDecision) => void;
  label: string;
}) {
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={value}
      onChange={(_event, next: ReviewDecision | null) => next && onChange(next)}
      aria-label={label}
    >
      {DECISIONS.map((d) => (
        <ToggleButton key={d.value} value={d.value} sx={{ py: 0.25 }}>
          {d.label}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

const EntityReviewRow = memo(function EntityReviewRow({
  entity,
  relationship,
  review,
  relationshipReview,
  onDecision,
  onRelationship,
  onEdit,
  selected,
}: {
  entity: ScreenEntity;
  relationship: RelationshipRow | undefined;
  review: EntityReviewState;
  relationshipReview: RelationshipReviewState | undefined;
  onDecision: (id: string, decision: ReviewDecision) => void;
  onRelationship: (id: string, next: RelationshipReviewState) => void;
  onEdit: (id: string) => void;
  selected: boolean;
}) {
  const data = review.changed ?? entity.data;
  return (
    <Box
      component="li"
      data-review-id={entity.data.id}
      sx={{
        p: 1,
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: selected ? 'action.selected' : undefined,
        listStyle: 'none',
      }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Box sx={{ flexGrow: 1, minWidth: 160 }}>
          <Typography component="span" sx={{ fontWeight: 600 }}>
            {data.extract}
          </Typography>
          <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
            {[data.category, data.conceptName && `${data.conceptName} (${data.CUI})`]
              .filter(Boolean)
              .join(' · ')}
          </Typography>
        </Box>
        <Decision
          value={review.decision}
          label={`Decision on ${data.extract}`}
          onChange={(next) =>
            next === 'change' ? onEdit(entity.data.id) : onDecision(entity.data.id, next)
          }
        />
      </Stack>
      {relationship && relationshipReview ? (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5, pl: 2 }}>
          <Typography variant="body2" sx={{ flexGrow: 1 }}>
            {`Relationship ${relationship.category}, weight`}
          </Typography>
          <InputBase
            value={relationshipReview.weight}
            onChange={(event) =>
              onRelationship(relationship.id, {
                weight: event.target.value,
                decision: event.target.value === relationship.weight ? 'accept' : 'change',
              })
            }
            inputProps={{ 'aria-label': `Weight of the relationship of ${data.extract}` }}
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 1, width: 100 }}
          />
          <Decision
            value={relationshipReview.decision}
            label={`Decision on the relationship of ${data.extract}`}
            onChange={(next) =>
              onRelationship(relationship.id, { ...relationshipReview, decision: next })
            }
          />
        </Stack>
      ) : null}
    </Box>
  );
});

/** The body of `…/review`: a decision for every entity and relationship. */
export function reviewBody(
  version: number,
  outcome: 'approve' | 'return',
  comment: string,
  entities: readonly ScreenEntity[],
  reviews: ReadonlyMap<string, EntityReviewState>,
  relationships: readonly RelationshipRow[],
  relationshipReviews: ReadonlyMap<string, RelationshipReviewState>,
): ReviewAnnotationsBody {
  return {
    version,
    outcome,
    comment: comment.trim() || null,
    entities: entities.map(({ data }) => {
      const review = reviews.get(data.id) ?? { decision: 'accept' as const };
      const changed = review.decision === 'change' ? review.changed : undefined;
      return {
        id: data.id,
        decision: review.decision,
        ...(changed
          ? {
              entity: {
                ...changed,
                category: changed.category as AnnotatedEntity['category'],
                state: 'annotated' as const,
              },
            }
          : {}),
      };
    }),
    relationships: relationships.map((row) => {
      const review = relationshipReviews.get(row.id) ?? {
        decision: 'accept' as const,
        weight: row.weight,
      };
      return {
        id: row.id,
        decision: review.decision,
        ...(review.decision === 'change'
          ? { relationship: { ...row, weight: review.weight } }
          : {}),
      };
    }),
  };
}

function Review({ job, notify }: { job: AuthoringJob; notify: Toast }) {
  const navigate = useNavigate();
  const toast = useToast();
  const review = useReview(job.key);
  const finished = useRef(false);
  useReleaseOnLeave(job.key, finished);
  const text = job.preparedText;
  const blocks = useMemo(() => splitBlocks(text), [text]);
  const submitted = useMemo(
    () =>
      job.annotations
        ? stateFromSet(text, job.annotations, 'annotated')
        : { entities: [], relationships: [] },
    [job.annotations, text],
  );
  const [reviews, setReviews] = useState<Map<string, EntityReviewState>>(() => new Map());
  const [relationshipReviews, setRelationshipReviews] = useState<
    Map<string, RelationshipReviewState>
  >(
    () =>
      new Map(submitted.relationships.map((r) => [r.id, { decision: 'accept', weight: r.weight }])),
  );
  const [comment, setComment] = useState('');
  const [editing, setEditing] = useState<{ id: string; anchor: HTMLElement | null } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const { conflict, onFailure } = useSaveFailure('none');
  const view = useRef<DocumentTextHandle>(null);
  const list = useRef<HTMLUListElement>(null);

  const onDecision = useCallback((id: string, decision: ReviewDecision) => {
    setReviews((current) => new Map(current).set(id, { decision }));
  }, []);
  const onRelationship = useCallback((id: string, next: RelationshipReviewState) => {
    setRelationshipReviews((current) => new Map(current).set(id, next));
  }, []);
  const onEdit = useCallback((id: string) => {
    setEditing({ id, anchor: view.current?.chipOf(id) ?? null });
  }, []);
  const select = useCallback((id: string) => {
    setSelected(id);
    list.current?.querySelector(`[data-review-id="${id}"]`)?.scrollIntoView({ block: 'nearest' });
  }, []);

  const send = (outcome: 'approve' | 'return') => {
    if (outcome === 'return' && comment.trim() === '') {
      toast.error(REVIEW_MESSAGES.commentRequired);
      return;
    }
    review.mutate(
      reviewBody(
        job.version,
        outcome,
        comment,
        submitted.entities,
        reviews,
        submitted.relationships,
        relationshipReviews,
      ),
      {
        onSuccess: () => {
          finished.current = true;
          notify.success(
            outcome === 'approve' ? REVIEW_MESSAGES.approved : REVIEW_MESSAGES.returned,
          );
          void navigate(PATHS['authoring-tasks']);
        },
        onError: onFailure,
      },
    );
  };

  const edited = editing ? submitted.entities.find((e) => e.data.id === editing.id) : undefined;
  const relationshipOf = useMemo(
    () => new Map(submitted.relationships.map((r) => [r.id, r])),
    [submitted.relationships],
  );
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <TaskHeader
        back={{ to: PATHS['authoring-tasks'], label: 'Authoring Tasks' }}
        trail={['Annotation Review']}
        title={job.displayName}
        subtitle={[
          job.source,
          job.annotatedBy && `annotated by ${job.annotatedBy.email ?? job.annotatedBy.userId}`,
        ]
          .filter(Boolean)
          .join(' · ')}
        instruction="Accept, change or reject each entity and relationship, then approve the document or return it with a comment."
      />
      {conflict ? <ConflictAlert conflict={conflict} what="decisions" /> : null}
      <Legend />
      <Box sx={{ display: 'grid', gridTemplateColumns: { md: '3fr 2fr' }, gap: 2 }}>
        <DocumentText
          ref={view}
          text={text}
          blocks={blocks}
          entities={submitted.entities}
          cursor={{ caret: 0, anchor: null }}
          focusedId={selected}
          onKeyDown={() => undefined}
          onKeyUp={() => undefined}
          onMouseSelect={() => undefined}
          onChipClick={select}
          onChipDoubleClick={onEdit}
          height="60vh"
          label="Submitted annotations in the document text"
        />
        <Paper variant="outlined" sx={{ maxHeight: '60vh', overflowY: 'auto' }}>
          <Box component="ul" ref={list} aria-label="Submitted entities" sx={{ m: 0, p: 0 }}>
            {submitted.entities.map((entity) => (
              <EntityReviewRow
                key={entity.data.id}
                entity={entity}
                relationship={relationshipOf.get(entity.data.id)}
                review={reviews.get(entity.data.id) ?? { decision: 'accept' }}
                relationshipReview={relationshipReviews.get(entity.data.id)}
                onDecision={onDecision}
                onRelationship={onRelationship}
                onEdit={onEdit}
                selected={selected === entity.data.id}
              />
            ))}
          </Box>
          {submitted.entities.length === 0 ? (
            <Typography sx={{ p: 2 }}>No entities were submitted.</Typography>
          ) : null}
        </Paper>
      </Box>
      <TextField
        label="Comment"
        multiline
        minRows={2}
        maxRows={8}
        value={comment}
        onChange={(event) => setComment(event.target.value)}
        helperText="Required to return the document; kept with the review."
      />
      <SaveBar
        busy={review.isPending}
        actions={[
          { label: 'RETURN TO ANNOTATOR', onClick: () => send('return') },
          { label: 'APPROVE', onClick: () => send('approve'), primary: true },
        ]}
      />
      {edited ? (
        <EntityEditor
          key={edited.data.id}
          data={reviews.get(edited.data.id)?.changed ?? edited.data}
          anchorEl={editing?.anchor ?? null}
          linked={relationshipReviews.has(edited.data.id)}
          onSave={(data) => {
            setReviews((current) =>
              new Map(current).set(data.id, { decision: 'change', changed: data }),
            );
            setRelationshipReviews((current) => {
              const row = current.get(data.id);
              return row ? new Map(current).set(data.id, row) : current;
            });
            setEditing(null);
          }}
          onDelete={() => {
            onDecision(edited.data.id, 'reject');
            setEditing(null);
          }}
          deleteLabel="Reject"
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Stack>
  );
}

/** /jobs/authoring-tasks/:id/review: a submitted document's review (issue 13 item 5). */
export function AnnotationReviewRoute() {
  usePageTitle('Annotation Review');
  return <TakenJob Screen={Review} />;
}
