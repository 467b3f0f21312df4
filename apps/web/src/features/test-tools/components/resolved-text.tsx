import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import type { EntityExtractionResult } from '@loopdesk/contracts/nlp.ts';

export type ResolvedSegment = EntityExtractionResult['resolved']['resolvedEntities'][number];

/**
 * Spec 3 §9 legend colours: pink and purple, each dark enough for white text at 4.5:1 (pink 600;
 * pink 400, #ec407a, gave 3.8:1).
 */
export const RECOGNISED_COLOUR = '#d81b60';
export const NORMALISED_COLOUR = '#8e24aa';

/** Spec 3 §2: the tooltip of an item without concepts. */
export const NO_MATCHED_CONCEPTS = 'No matched concepts';
/** What the tooltip of a negated entity adds (issue 20 #26). */
export const NEGATED_NOTE = 'Negated: the text says this is absent';

/** Text read by screen readers only. */
const screenReaderOnly = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** A legend chip: Recognised Entity (pink) or Normalised Entity (purple). */
export function LegendChip({
  label,
  colour,
  negated = false,
}: {
  label: string;
  colour: string;
  negated?: boolean;
}) {
  return (
    <Chip
      size="small"
      label={label}
      variant={negated ? 'outlined' : 'filled'}
      sx={
        negated
          ? { borderStyle: 'dashed', '& .MuiChip-label': { textDecoration: 'line-through' } }
          : { bgcolor: colour, color: '#fff' }
      }
    />
  );
}

/**
 * The start offset (in the text) of each segment: plain pieces and recognised spans follow each
 * other through the whole text.
 */
function segmentStarts(segments: readonly ResolvedSegment[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const segment of segments) {
    starts.push(at);
    at += typeof segment === 'string' ? segment.length : segment.original.length;
  }
  return starts;
}

function ConceptTooltip({
  normalised,
  negated,
}: {
  normalised: readonly { id: string; display: string }[];
  negated: boolean;
}) {
  if (normalised.length === 0 && !negated) {
    return NO_MATCHED_CONCEPTS;
  }
  return (
    <Box component="span" sx={{ display: 'block' }}>
      {normalised.length === 0 ? (
        <Box component="span" sx={{ display: 'block' }}>
          {NO_MATCHED_CONCEPTS}
        </Box>
      ) : (
        normalised.map((item) => (
          <Box component="span" key={item.id} sx={{ display: 'block' }}>
            Concept: {item.display} · Code: {item.id}
          </Box>
        ))
      )}
      {negated ? (
        <Box component="span" sx={{ display: 'block', fontWeight: 600 }}>
          {NEGATED_NOTE}
        </Box>
      ) : null}
    </Box>
  );
}

/**
 * The text with each recognised item as a chip holding its original text (spec 3 §2): purple when
 * it was normalised to concepts, pink when recognised without any; the tooltip gives each
 * concept and its code, or says 'No matched concepts'. A span starting at one of
 * `negatedStarts` is negated ("no cough"): outlined, dashed and struck through, and says so.
 */
export function ResolvedText({
  segments,
  label,
  negatedStarts = new Set<number>(),
}: {
  segments: readonly ResolvedSegment[];
  label: string;
  negatedStarts?: ReadonlySet<number>;
}) {
  const starts = segmentStarts(segments);
  return (
    <Box
      aria-label={label}
      role="region"
      sx={{ whiteSpace: 'pre-wrap', lineHeight: 2.4, wordBreak: 'break-word' }}
    >
      {segments.map((segment, index) => {
        if (typeof segment === 'string') {
          return <span key={index}>{segment}</span>;
        }
        const negated = negatedStarts.has(starts[index] ?? -1);
        const normalised = segment.normalised.length > 0;
        const colour = normalised ? NORMALISED_COLOUR : RECOGNISED_COLOUR;
        return (
          <Tooltip
            key={index}
            title={<ConceptTooltip normalised={segment.normalised} negated={negated} />}
            arrow
          >
            <Chip
              size="small"
              label={
                <>
                  <span>{segment.original}</span>
                  {negated ? (
                    <Box component="span" sx={screenReaderOnly}>
                      {' '}
                      (negated)
                    </Box>
                  ) : null}
                </>
              }
              variant={negated ? 'outlined' : 'filled'}
              // Focusable, so the tooltip of concepts opens from the keyboard too.
              tabIndex={0}
              sx={{
                mx: 0.25,
                maxWidth: '100%',
                ...(negated
                  ? {
                      borderColor: colour,
                      borderStyle: 'dashed',
                      borderWidth: 2,
                      '& .MuiChip-label > span:first-of-type': { textDecoration: 'line-through' },
                    }
                  : { bgcolor: colour, color: '#fff' }),
              }}
            />
          </Tooltip>
        );
      })}
    </Box>
  );
}
